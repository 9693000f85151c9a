import CastSync
import Glibc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads the terminal's input on one thread of its own and turns it into key presses.
///
/// The thread waits in `poll` on the input and on a wake-up pipe that carries SIGWINCH,
/// SIGCONT and the request to stop. While the decoder holds an incomplete sequence the wait
/// is bounded by the escape timeout, after which the held bytes are flushed (a lone ESC
/// becomes the Escape key). Stopping waits for the thread to finish, so no byte is read from
/// the input after ``stop()`` returns.
final class InputReader: Sendable {
    /// What the reader reports to its owner, on the reader's thread.
    enum Report: Sendable {
        case keys([KeyEvent])
        case resized
        case continued
        case closed
    }

    private struct State {
        var wakeWrite: Int32 = -1
        var running = false
        var finished = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let input: Int32
    private let escapeTimeoutMilliseconds: Int32
    private let routesSignals: Bool
    private let report: @Sendable (Report) -> Void
    private let state = Locked(State())

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - input: The file descriptor to read.
    ///   - escapeTimeout: How long an incomplete sequence may wait for its next byte.
    ///   - routesSignals: Whether SIGWINCH and SIGCONT are reported (one reader at a time).
    ///   - report: Called on the reader's thread.
    init(
        input: Int32,
        escapeTimeout: Duration,
        routesSignals: Bool,
        report: @escaping @Sendable (Report) -> Void
    ) {
        self.input = input
        let (seconds, attoseconds) = escapeTimeout.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        self.escapeTimeoutMilliseconds = Int32(clamping: max(1, milliseconds))
        self.routesSignals = routesSignals
        self.report = report
    }

    /// Creates the wake-up pipe, routes the wake signals to it when asked to, and starts the
    /// thread. The thread closes the pipe when it finishes.
    func start() throws {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else {
            throw TerminalError(.eventSource, operation: "pipe", errno: errno)
        }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        let wakeRead = descriptors[0]
        let wakeWrite = descriptors[1]
        state.withLock { state in
            state = State(wakeWrite: wakeWrite, running: true)
        }
        if routesSignals {
            TerminalRestoration.routeWakeSignals(to: wakeWrite)
        }
        // A thread of its own (pthread: Foundation's `Thread` would load Foundation for this).
        let context = Unmanaged.passRetained(
            ThreadBody { [self] in
                run(wakeRead: wakeRead)
                finish(wakeRead: wakeRead)
            }
        ).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread,
            nil,
            { context in
                let body = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
                body.run()
                return nil
            },
            context
        )
        guard created == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            state.withLock { $0 = State() }
            if routesSignals { TerminalRestoration.routeWakeSignals(to: -1) }
            close(wakeRead)
            close(wakeWrite)
            throw TerminalError(.eventSource, operation: "pthread_create", errno: created)
        }
        pthread_detach(thread)
    }

    /// Asks the thread to finish, without waiting for it.
    func requestStop() {
        if routesSignals {
            TerminalRestoration.routeWakeSignals(to: -1)
        }
        state.withLock { state in
            guard state.running, !state.finished, state.wakeWrite >= 0 else { return }
            var byte = UInt8(ascii: "q")
            _ = write(state.wakeWrite, &byte, 1)
        }
    }

    /// Stops the thread and waits until it has finished: no byte is read after this returns.
    func stop() async {
        requestStop()
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.finished || !state.running { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func finish(wakeRead: Int32) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.finished = true
            close(wakeRead)
            close(state.wakeWrite)
            state.wakeWrite = -1
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    private func run(wakeRead: Int32) {
        var decoder = KeyDecoder()
        var inputOpen = true
        var buffer = [UInt8](repeating: 0, count: 4096)
        var descriptors = [
            pollfd(fd: input, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            descriptors[0].fd = inputOpen ? input : -1
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            let timeout = decoder.hasPendingInput ? escapeTimeoutMilliseconds : -1
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                report(.closed)
                return
            }
            if ready == 0 {
                let keys = decoder.flush()
                if !keys.isEmpty { report(.keys(keys)) }
                continue
            }
            if descriptors[1].revents != 0 {
                let count = read(wakeRead, &buffer, buffer.count)
                if count > 0 {
                    let bytes = buffer[0..<count]
                    if bytes.contains(UInt8(ascii: "q")) { return }
                    if bytes.contains(UInt8(ascii: "c")) { report(.continued) }
                    if bytes.contains(UInt8(ascii: "w")) { report(.resized) }
                }
            }
            if inputOpen, descriptors[0].revents != 0 {
                let count = read(input, &buffer, buffer.count)
                if count > 0 {
                    let keys = decoder.decode(buffer[0..<count])
                    if !keys.isEmpty { report(.keys(keys)) }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    let keys = decoder.flush()
                    if !keys.isEmpty { report(.keys(keys)) }
                    inputOpen = false
                    report(.closed)
                }
            }
        }
    }
}

/// The work of the reader's thread, handed to `pthread_create` as its one argument.
private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void

    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
