import CastSync
import Glibc

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The terminal a program runs in: its size and capabilities, raw mode, the alternate screen,
/// and output.
///
/// ``activate(alternateScreen:)`` switches to raw mode (no echo, no line editing, no signals
/// from Ctrl-C, no output processing), to the alternate screen with the cursor hidden, and
/// arms process-wide restoration so that a signal, a crash or `exit()` puts the terminal back
/// as it was. ``restore()`` does that on the normal path. When input or output is not a
/// terminal, raw mode is skipped and the size comes from `COLUMNS` and `LINES` (or 80×24).
public final class Terminal: Sendable {
    /// The file descriptor keys are read from.
    public let inputDescriptor: Int32
    /// The file descriptor the screen is written to.
    public let outputDescriptor: Int32
    /// The environment the capabilities and fallback size were read from.
    public let environment: [String: String]
    /// What the terminal can show.
    public let capabilities: TerminalCapabilities

    private struct State {
        var active = false
        var savedAttributes: termios?
        var alternateScreen = false
    }

    private let state = Locked(State())

    /// Describes a terminal on the given file descriptors.
    ///
    /// - Parameters:
    ///   - input: Where keys are read from (standard input by default).
    ///   - output: Where the screen is written (standard output by default).
    ///   - environment: Read for `TERM`, `COLORTERM`, `NO_COLOR`, the locale, `COLUMNS` and `LINES`.
    public init(
        // Standard input and output (STDIN_FILENO and STDOUT_FILENO, which the module's
        // clients need not import to call this).
        input: Int32 = 0,
        output: Int32 = 1,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.inputDescriptor = input
        self.outputDescriptor = output
        self.environment = environment
        self.capabilities = TerminalCapabilities.detect(environment: environment)
    }

    /// Whether input is a terminal, so raw mode applies.
    public var isInteractive: Bool { isatty(inputDescriptor) == 1 }

    /// The largest size used, whatever the terminal reports, so a screen buffer stays small.
    public static let maximumSize = Size(width: 1000, height: 500)

    /// The current size: from the terminal driver (`TIOCGWINSZ`) when output or input is a
    /// terminal, otherwise from `COLUMNS` and `LINES`, otherwise 80×24; at most
    /// ``maximumSize``.
    public func size() -> Size {
        for descriptor in [outputDescriptor, inputDescriptor] {
            var window = winsize()
            if ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 {
                return Size(
                    width: min(Int(window.ws_col), Terminal.maximumSize.width),
                    height: min(Int(window.ws_row), Terminal.maximumSize.height)
                )
            }
        }
        return Terminal.fallbackSize(environment: environment)
    }

    /// The size given by `COLUMNS` and `LINES`, each defaulting to 80 and 24 when unset or
    /// not a positive number, and each at most ``maximumSize``.
    public static func fallbackSize(environment: [String: String]) -> Size {
        func value(_ name: String, _ fallback: Int, _ limit: Int) -> Int {
            guard let text = environment[name], let number = Int(text), number > 0 else {
                return fallback
            }
            return min(number, limit)
        }
        return Size(
            width: value("COLUMNS", 80, maximumSize.width),
            height: value("LINES", 24, maximumSize.height)
        )
    }

    /// Enters raw mode and, optionally, the alternate screen; hides the cursor and turns off
    /// automatic line wrapping. Restoration is armed before anything changes.
    ///
    /// - Throws: ``TerminalError/Code/alreadyActive`` when a terminal is active already in
    ///   this process, ``TerminalError/Code/attributes`` when raw mode cannot be set,
    ///   ``TerminalError/Code/write`` when the output fails (the terminal is then restored).
    public func activate(alternateScreen: Bool = true) throws {
        try state.withLock { state in
            guard !state.active, TerminalRestoration.claim() else {
                throw TerminalError(.alreadyActive, operation: "activate", fileDescriptor: inputDescriptor)
            }
            var saved: termios?
            if isatty(inputDescriptor) == 1 {
                var attributes = termios()
                guard tcgetattr(inputDescriptor, &attributes) == 0 else {
                    TerminalRestoration.release()
                    throw TerminalError(
                        .attributes,
                        operation: "tcgetattr",
                        fileDescriptor: inputDescriptor,
                        errno: errno
                    )
                }
                saved = attributes
            }
            TerminalRestoration.arm(
                input: inputDescriptor,
                attributes: saved,
                output: outputDescriptor,
                leaveSequence: Terminal.leaveSequence(alternateScreen: alternateScreen)
            )
            if let saved {
                var raw = saved
                Terminal.makeRaw(&raw)
                guard tcsetattr(inputDescriptor, TCSANOW, &raw) == 0 else {
                    let code = errno
                    TerminalRestoration.disarm()
                    TerminalRestoration.release()
                    throw TerminalError(
                        .attributes,
                        operation: "tcsetattr",
                        fileDescriptor: inputDescriptor,
                        errno: code
                    )
                }
            }
            state = State(active: true, savedAttributes: saved, alternateScreen: alternateScreen)
        }
        do {
            try write(Array(Terminal.enterSequence(alternateScreen: alternateScreen).utf8))
        } catch {
            restore()
            throw error
        }
    }

    /// Puts raw mode back after the process was stopped and continued (a shell may have reset
    /// the terminal meanwhile). Does nothing when the terminal is not active.
    public func reapplyRawMode() {
        let alternateScreen = state.withLock { state -> Bool? in
            guard state.active else { return nil }
            if var raw = state.savedAttributes {
                Terminal.makeRaw(&raw)
                _ = tcsetattr(inputDescriptor, TCSANOW, &raw)
            }
            return state.alternateScreen
        }
        if let alternateScreen {
            try? write(Array(Terminal.enterSequence(alternateScreen: alternateScreen).utf8))
        }
    }

    /// Gives the terminal back to the shell for a while, as before the process stops itself
    /// (Ctrl-Z): leaves the alternate screen, shows the cursor and restores the saved
    /// attributes, but stays active, so that ``reapplyRawMode()`` takes it over again once the
    /// process continues. Does nothing when the terminal is not active.
    public func suspend() {
        let saved = state.withLock { state -> (attributes: termios?, alternateScreen: Bool)? in
            guard state.active else { return nil }
            return (state.savedAttributes, state.alternateScreen)
        }
        guard let saved else { return }
        try? write(Terminal.leaveSequence(alternateScreen: saved.alternateScreen))
        if var attributes = saved.attributes {
            _ = tcsetattr(inputDescriptor, TCSADRAIN, &attributes)
        }
    }

    /// Leaves the alternate screen, shows the cursor, resets colours and restores the terminal
    /// attributes saved by ``activate(alternateScreen:)``. Safe to call more than once.
    public func restore() {
        let previous = state.withLock { state -> State? in
            guard state.active else { return nil }
            defer { state = State() }
            return state
        }
        guard let previous else { return }
        TerminalRestoration.disarm()
        try? write(Terminal.leaveSequence(alternateScreen: previous.alternateScreen))
        if var attributes = previous.savedAttributes {
            _ = tcsetattr(inputDescriptor, TCSANOW, &attributes)
        }
        TerminalRestoration.release()
    }

    /// Writes all the bytes to the output, retrying after interruptions and partial writes.
    ///
    /// - Throws: ``TerminalError/Code/write`` when the output fails.
    public func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.write(outputDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written > 0 {
                offset += written
                continue
            }
            let code = errno
            if written < 0, code == EINTR {
                continue
            }
            if written < 0, code == EAGAIN || code == EWOULDBLOCK {
                var descriptor = pollfd(fd: outputDescriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&descriptor, 1, 1000)
                continue
            }
            throw TerminalError(.write, operation: "write", fileDescriptor: outputDescriptor, errno: code)
        }
    }

    // MARK: - Sequences and modes

    static func enterSequence(alternateScreen: Bool) -> String {
        (alternateScreen ? ANSI.enterAlternateScreen : "") + ANSI.hideCursor + ANSI.disableLineWrap
    }

    static func leaveSequence(alternateScreen: Bool) -> [UInt8] {
        let text =
            ANSI.resetStyle + ANSI.enableLineWrap + ANSI.showCursor
            + (alternateScreen ? ANSI.leaveAlternateScreen : "\r\n")
        return Array(text.utf8)
    }

    /// The attributes of raw mode, as `cfmakeraw` sets them, reading one byte at a time.
    static func makeRaw(_ attributes: inout termios) {
        attributes.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
        attributes.c_oflag &= ~tcflag_t(OPOST)
        attributes.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        attributes.c_cflag &= ~tcflag_t(CSIZE | PARENB)
        attributes.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &attributes.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1
            controlCharacters[Int(VTIME)] = 0
        }
    }
}
