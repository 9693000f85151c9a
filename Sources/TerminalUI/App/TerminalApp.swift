import CastSync
import Glibc

/// Runs a full-screen terminal program: owns the terminal, delivers key, resize and refresh
/// events, and draws a frame after each batch of events.
///
/// ```swift
/// let app = TerminalApp()
/// var count = 0
/// try await app.run { screen in
///     screen.write("Pressed \(count) keys", at: .zero)
/// } handle: { event in
///     if case .key = event { count += 1 }
/// }
/// ```
///
/// ``run(isolation:render:handle:)`` calls `render` with a cleared ``ScreenBuffer`` the size
/// of the terminal and sends only what changed since the previous frame, in one write. It
/// returns when ``stop()`` is called, when Ctrl-C is pressed (unless turned off), when input
/// ends (unless turned off), when `handle` or drawing throws, or when its task is cancelled;
/// the terminal is restored in every case, and also when the process is killed by a signal,
/// crashes or calls `exit()` while the loop runs.
public final class TerminalApp: Sendable {
    /// Choices for the app loop.
    public struct Configuration: Sendable {
        /// Draw on the alternate screen, leaving the shell's screen untouched (default true).
        public var alternateScreen: Bool
        /// How long to wait for the rest of an escape sequence before a lone ESC counts as the
        /// Escape key (default 50 ms).
        public var escapeTimeout: Duration
        /// End the loop on Ctrl-C, without handing the key to the app (default true).
        public var stopsOnControlC: Bool
        /// End the loop after handing ``TerminalEvent/inputClosed`` to the app (default true).
        public var stopsWhenInputCloses: Bool
        /// How pictures drawn with ``ScreenBuffer/drawPicture(_:in:background:cells:)`` are shown:
        /// in cells only (the default), with the protocol the terminal declares (asked when the
        /// loop starts), or with a given protocol.
        public var graphics: GraphicsChoice

        /// Creates a configuration.
        public init(
            alternateScreen: Bool = true,
            escapeTimeout: Duration = .milliseconds(50),
            stopsOnControlC: Bool = true,
            stopsWhenInputCloses: Bool = true,
            graphics: GraphicsChoice = .cellsOnly
        ) {
            self.alternateScreen = alternateScreen
            self.escapeTimeout = escapeTimeout
            self.stopsOnControlC = stopsOnControlC
            self.stopsWhenInputCloses = stopsWhenInputCloses
            self.graphics = graphics
        }
    }

    /// How pictures are shown.
    public struct GraphicsChoice: Hashable, Sendable {
        enum Kind: Hashable, Sendable {
            case cells
            case detect
            case fixed(GraphicsProtocol)
        }

        let kind: Kind

        /// Character cells only (half blocks, or shades without colour).
        public static let cellsOnly = GraphicsChoice(kind: .cells)
        /// The protocol the terminal declares: its answers to a query when the loop starts,
        /// and its environment (``Terminal/queryGraphics(timeout:)``).
        public static let detect = GraphicsChoice(kind: .detect)
        /// A given protocol, whatever the terminal says.
        public static func fixed(_ graphicsProtocol: GraphicsProtocol) -> GraphicsChoice {
            GraphicsChoice(kind: .fixed(graphicsProtocol))
        }
    }

    private struct State {
        var queue: EventQueue?
        var running = false
        var stopRequested = false
        var fullRedrawRequested = false
        var size = Size.zero
        var graphics = GraphicsSupport(graphicsProtocol: nil, reason: "not started")
    }

    /// The terminal the app draws on.
    public let terminal: Terminal
    /// The app loop's choices.
    public let configuration: Configuration
    private let state = Locked(State())

    /// Creates an app loop for a terminal (standard input and output by default).
    public init(terminal: Terminal = Terminal(), configuration: Configuration = Configuration()) {
        self.terminal = terminal
        self.configuration = configuration
    }

    /// What the terminal can show: pick colours and ``Glyphs`` from it.
    public var capabilities: TerminalCapabilities { terminal.capabilities }

    /// How pictures are shown, as decided when the loop started (``Configuration/graphics``).
    /// Without colour (`NO_COLOR`, a dumb terminal) no protocol is used.
    public var graphics: GraphicsSupport { state.withLock { $0.graphics } }

    /// Asks for a new frame; requests made before the frame is drawn are merged. Call it from
    /// any thread or task after the app's state changed outside `handle`.
    public func requestRender() {
        let queue = state.withLock { $0.queue }
        queue?.post([.refresh])
    }

    /// Asks for the next frame to be drawn from scratch, as after the screen was disturbed.
    public func requestFullRedraw() {
        let queue = state.withLock { state -> EventQueue? in
            state.fullRedrawRequested = true
            return state.queue
        }
        queue?.post([.refresh])
    }

    /// Ends the loop after the event being handled; the terminal is then restored.
    public func stop() {
        let queue = state.withLock { state -> EventQueue? in
            state.stopRequested = true
            return state.queue
        }
        queue?.close()
    }

    /// Stops the process the way Ctrl-Z does in a shell, and takes the terminal over again
    /// when it continues: the terminal is given back to the shell (``Terminal/suspend()``),
    /// the process raises SIGTSTP and stays stopped until the shell continues it (`fg`,
    /// SIGCONT), then raw mode comes back and the next frame is drawn from scratch.
    ///
    /// In raw mode Ctrl-Z reaches the app as a key (``KeyEvent/control(_:)`` `"z"`), so the app
    /// decides when to call this, typically after pausing its network activity. Returns at
    /// once without stopping when no shell can continue the process (an orphaned process
    /// group, where the system discards SIGTSTP). Call it from `handle`.
    public func suspendProcess() {
        terminal.suspend()
        Self.stopUntilContinued()
        terminal.reapplyRawMode()
        requestFullRedraw()
    }

    /// Stops the process with SIGTSTP and returns once it is continued (or at once when the
    /// system discards the signal).
    ///
    /// The signal is raised on the calling thread with SIGTSTP unblocked there for the
    /// duration. Sent to the process instead (`kill(getpid(), …)`), it may be taken by another
    /// thread, and this one runs on until the stop reaches it: raw mode back on, the app
    /// resumed and a frame drawn on the shell's screen before the shell says "Stopped". And
    /// raised with it blocked (the thread that runs the app's main actor may be a Dispatch
    /// worker, which blocks signals), it would stay pending.
    private static func stopUntilContinued() {
        var stop = sigset_t()
        sigemptyset(&stop)
        sigaddset(&stop, SIGTSTP)
        var previous = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &stop, &previous)
        // raise() delivers an unblocked signal to the calling thread before it returns; the
        // default action of SIGTSTP stops the whole process until SIGCONT.
        raise(SIGTSTP)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }

    /// Takes over the terminal and runs the loop until it ends, then restores the terminal.
    ///
    /// - Parameters:
    ///   - isolation: The actor `render` and `handle` run on (the caller's, by default).
    ///   - render: Draws the app's current state into a cleared buffer of the terminal's size.
    ///   - handle: Reacts to an event. A frame is drawn after each batch of events.
    /// - Throws: ``TerminalError`` when the terminal cannot be set up or written, or what
    ///   `handle` throws.
    public func run(
        isolation: isolated (any Actor)? = #isolation,
        render: (inout ScreenBuffer) -> Void,
        handle: (TerminalEvent) async throws -> Void
    ) async throws {
        let queue = EventQueue()
        try state.withLock { state in
            guard !state.running else {
                throw TerminalError(.alreadyActive, operation: "run")
            }
            state = State(queue: queue, running: true, size: terminal.size())
        }
        defer { state.withLock { $0 = State() } }
        let reader = InputReader(
            input: terminal.inputDescriptor,
            escapeTimeout: configuration.escapeTimeout,
            routesSignals: true
        ) { [weak self] report in
            self?.deliver(report, to: queue)
        }
        do {
            try terminal.activate(alternateScreen: configuration.alternateScreen)
            let (graphics, typed) = decideGraphics()
            state.withLock { $0.graphics = graphics }
            if !typed.isEmpty {
                var decoder = KeyDecoder()
                queue.post((decoder.decode(typed) + decoder.flush()).map { .key($0) })
            }
            try reader.start()
        } catch {
            await reader.stop()
            terminal.restore()
            throw error
        }
        var failure: (any Error)?
        do {
            try await loop(queue: queue, render: render, handle: handle)
        } catch {
            failure = error
        }
        queue.close()
        await reader.stop()
        terminal.restore()
        if let failure { throw failure }
    }

    // MARK: - Private

    private func decideGraphics() -> (GraphicsSupport, [UInt8]) {
        let cell = terminal.cellPixelSize()
        guard terminal.capabilities.colors != .none else {
            return (
                GraphicsSupport(graphicsProtocol: nil, reason: "the terminal shows no colour", cellPixelSize: cell), []
            )
        }
        switch configuration.graphics.kind {
        case .cells:
            return (GraphicsSupport(graphicsProtocol: nil, reason: "character cells chosen", cellPixelSize: cell), [])
        case .fixed(let graphicsProtocol):
            return (GraphicsSupport(graphicsProtocol: graphicsProtocol, reason: "chosen", cellPixelSize: cell), [])
        case .detect:
            return terminal.queryGraphics()
        }
    }

    private func loop(
        isolation: isolated (any Actor)? = #isolation,
        queue: EventQueue,
        render: (inout ScreenBuffer) -> Void,
        handle: (TerminalEvent) async throws -> Void
    ) async throws {
        var buffer = ScreenBuffer(size: state.withLock { $0.size })
        var renderer = FrameRenderer(colors: capabilities.colors)
        let graphics = self.graphics
        renderer.graphics = graphics.graphicsProtocol
        if let cell = graphics.cellPixelSize { renderer.cellPixelSize = cell }
        defer {
            let finish = renderer.finish()
            if !finish.isEmpty { try? terminal.write(finish) }
        }
        func draw() throws {
            if state.withLock({ state in
                defer { state.fullRedrawRequested = false }
                return state.fullRedrawRequested
            }) {
                renderer.invalidate()
            }
            buffer.clear()
            render(&buffer)
            let bytes = renderer.render(buffer)
            if !bytes.isEmpty {
                try terminal.write(bytes)
            }
        }
        try draw()
        while !Task.isCancelled {
            let events = await queue.next()
            if events.isEmpty { return }
            for event in events {
                if state.withLock({ $0.stopRequested }) { return }
                switch event {
                case .resize(let size):
                    buffer.resize(to: size)
                    renderer.invalidate()
                case .key(let key) where configuration.stopsOnControlC && key == .control("c"):
                    return
                default:
                    break
                }
                try await handle(event)
                if event == .inputClosed, configuration.stopsWhenInputCloses { return }
            }
            if state.withLock({ $0.stopRequested }) { return }
            try draw()
        }
    }

    private func deliver(_ report: InputReader.Report, to queue: EventQueue) {
        switch report {
        case .keys(let keys):
            queue.post(keys.map { .key($0) })
        case .closed:
            queue.post([.inputClosed])
        case .continued:
            terminal.reapplyRawMode()
            requestFullRedraw()
        case .resized:
            let size = terminal.size()
            let changed = state.withLock { state -> Bool in
                defer { state.size = size }
                return state.size != size
            }
            if changed {
                queue.post([.resize(size)])
            }
        }
    }
}
