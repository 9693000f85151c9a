import CastSync
import Glibc
import Synchronization

/// Process-wide state that puts the terminal back from places where no Swift cleanup runs:
/// signal handlers and `exit()`.
///
/// While armed, the terminating signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT) and the fatal ones
/// (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP) first write the sequences that leave
/// the full-screen mode and restore the saved terminal attributes, then proceed as they would
/// have: the previous disposition is put back and the signal raised again (a fault simply
/// happens again when the handler returns). Signals the process ignored are left alone.
/// SIGWINCH and SIGCONT write a byte to a wake-up pipe. Everything the handlers touch is
/// prepared before they are installed, and they only call async-signal-safe functions.
enum TerminalRestoration {
    struct Snapshot {
        var inputDescriptor: Int32 = -1
        var outputDescriptor: Int32 = -1
        var attributes = termios()
        var hasAttributes = false
        var leaveBytes: UnsafeMutablePointer<UInt8>?
        var leaveCount = 0
    }

    static let terminatingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    static let faultSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]
    static let wakeSignals: [Int32] = [SIGWINCH, SIGCONT]
    static let signalSlots = 65

    static let armed = Atomic<Bool>(false)
    private static let claimed = Atomic<Bool>(false)
    static let wakeFileDescriptor = Atomic<Int32>(-1)
    nonisolated(unsafe) static let snapshot: UnsafeMutablePointer<Snapshot> = {
        let pointer = UnsafeMutablePointer<Snapshot>.allocate(capacity: 1)
        pointer.initialize(to: Snapshot())
        return pointer
    }()
    nonisolated(unsafe) static let previousActions: UnsafeMutablePointer<sigaction> = {
        let pointer = UnsafeMutablePointer<sigaction>.allocate(capacity: signalSlots)
        pointer.initialize(repeating: sigaction(), count: signalSlots)
        return pointer
    }()
    /// Which slots of `previousActions` hold a saved action; guarded by `installation`.
    private static let installation = Locked<Set<Int32>>([])
    private static let exitHandlerRegistered = Locked(false)

    /// Takes the process-wide right to change the terminal; `false` when another holds it.
    static func claim() -> Bool {
        claimed.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
    }

    /// Gives back the right taken by ``claim()``.
    static func release() {
        claimed.store(false, ordering: .sequentiallyConsistent)
    }

    /// Saves what restoring needs and installs the handlers.
    static func arm(input: Int32, attributes: termios?, output: Int32, leaveSequence: [UInt8]) {
        disarm()
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, leaveSequence.count))
        bytes.initialize(from: leaveSequence, count: leaveSequence.count)
        let old = snapshot.pointee.leaveBytes
        snapshot.pointee = Snapshot(
            inputDescriptor: input,
            outputDescriptor: output,
            attributes: attributes ?? termios(),
            hasAttributes: attributes != nil,
            leaveBytes: bytes,
            leaveCount: leaveSequence.count
        )
        old?.deallocate()
        exitHandlerRegistered.withLock { registered in
            guard !registered else { return }
            registered = true
            atexit { TerminalRestoration.restoreNow() }
        }
        armed.store(true, ordering: .sequentiallyConsistent)
        installation.withLock { installed in
            for signal in terminatingSignals + faultSignals {
                install(signal, handler: restoringHandler, into: &installed, skipIgnored: true)
            }
        }
    }

    /// Stops restoring from signals and puts the previous handlers back.
    static func disarm() {
        armed.store(false, ordering: .sequentiallyConsistent)
        installation.withLock { installed in
            for signal in terminatingSignals + faultSignals where installed.contains(signal) {
                sigaction(signal, previousActions + Int(signal), nil)
                installed.remove(signal)
            }
        }
    }

    /// Sends SIGWINCH and SIGCONT to a pipe as the bytes `w` and `c` (or stops with -1).
    static func routeWakeSignals(to fileDescriptor: Int32) {
        wakeFileDescriptor.store(fileDescriptor, ordering: .sequentiallyConsistent)
        installation.withLock { installed in
            for signal in wakeSignals {
                if fileDescriptor >= 0 {
                    install(signal, handler: wakeHandler, into: &installed, skipIgnored: false)
                } else if installed.contains(signal) {
                    sigaction(signal, previousActions + Int(signal), nil)
                    installed.remove(signal)
                }
            }
        }
    }

    /// Restores the terminal once if armed. Async-signal-safe.
    static func restoreNow() {
        guard armed.exchange(false, ordering: .sequentiallyConsistent) else { return }
        let state = snapshot
        if let bytes = state.pointee.leaveBytes, state.pointee.leaveCount > 0 {
            _ = write(state.pointee.outputDescriptor, bytes, state.pointee.leaveCount)
        }
        if state.pointee.hasAttributes {
            _ = tcsetattr(state.pointee.inputDescriptor, TCSANOW, &state.pointee.attributes)
        }
    }

    private static func install(
        _ signal: Int32,
        handler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void,
        into installed: inout Set<Int32>,
        skipIgnored: Bool
    ) {
        guard !installed.contains(signal), signal < signalSlots else { return }
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0 else { return }
        let ignored = unsafeBitCast(SIG_IGN, to: Int.self)
        if skipIgnored, unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == ignored {
            return
        }
        previousActions[Int(signal)] = current
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = handler
        action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART
        sigemptyset(&action.sa_mask)
        if sigaction(signal, &action, nil) == 0 {
            installed.insert(signal)
        }
    }
}

private let restoringHandler:
    @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = { signal, info, _ in
        TerminalRestoration.restoreNow()
        _ = sigaction(signal, TerminalRestoration.previousActions + Int(signal), nil)
        let sentByProcess = (info?.pointee.si_code ?? 0) <= 0
        let isFault = signal == SIGSEGV || signal == SIGBUS || signal == SIGILL || signal == SIGFPE
        if sentByProcess || !isFault {
            _ = raise(signal)
        }
    }

private let wakeHandler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = {
    signal,
    _,
    _ in
    let savedErrno = errno
    let fileDescriptor = TerminalRestoration.wakeFileDescriptor.load(ordering: .relaxed)
    if fileDescriptor >= 0 {
        var byte: UInt8 = signal == SIGCONT ? UInt8(ascii: "c") : UInt8(ascii: "w")
        _ = write(fileDescriptor, &byte, 1)
    }
    errno = savedErrno
}
