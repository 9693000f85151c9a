import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM as an async sequence, delivered through Dispatch signal sources.
///
/// `@unchecked Sendable`: `sources` is set once in `init` and only kept alive afterwards.
final class StopSignals: @unchecked Sendable {
    private let stream: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    /// Ignores the default action of SIGINT and SIGTERM and starts watching them.
    ///
    /// The signals are also unblocked: a parent may have started the emulator with them
    /// blocked (test runners do), and a blocked signal never reaches the watcher.
    init() {
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        self.stream = stream
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { @Sendable in continuation.yield(number) }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    /// Waits for the first stop signal and returns its number.
    func wait() async -> Int32 {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next() ?? SIGTERM
    }
}
