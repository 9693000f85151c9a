import CastNetCore
import CastSync
import CastTestSupport
import CastTime
import Testing

@testable import CastNet

#if canImport(Glibc)
import Glibc
#endif

/// What a TCP channel makes of a peer that resets the connection right after sending: the
/// bytes that arrived first are delivered, then the reset is reported.
@Suite struct StreamChannelTests {
    /// Everything a channel reported, in order.
    final class Recorder: ByteChannelHandler {
        enum Event: Equatable {
            case read([UInt8])
            case endOfFile
            case closed(TCPError.Code?)
        }

        private let recorded = Locked<[Event]>([])
        /// Notified at each event.
        let changes = ChangeSignal()

        var events: [Event] { recorded.withLock { $0 } }

        /// The events, with consecutive reads merged into one.
        var merged: [Event] {
            var result: [Event] = []
            for event in events {
                if case .read(let chunk) = event, case .read(let earlier)? = result.last {
                    result[result.count - 1] = .read(earlier + chunk)
                } else {
                    result.append(event)
                }
            }
            return result
        }

        var isClosed: Bool {
            events.contains { if case .closed = $0 { true } else { false } }
        }

        func channelDidBecomeActive(_ channel: any ByteChannel) {}

        func channel(_ channel: any ByteChannel, didRead bytes: UnsafeRawBufferPointer) {
            recorded.withLock { $0.append(.read(Array(bytes))) }
        }

        func channelDidReadEndOfFile(_ channel: any ByteChannel) {
            recorded.withLock { $0.append(.endOfFile) }
        }

        func channelDidDrain(_ channel: any ByteChannel) {}

        func channel(_ channel: any ByteChannel, didCloseWith error: (any Error)?) {
            recorded.withLock { $0.append(.closed((error as? TCPError)?.code)) }
            changes.notify()
        }
    }

    /// Whether the channel reads from the start, or only once the reset is already known
    /// (it then holds the bytes until its owner reads again).
    enum Reading: String, CaseIterable, CustomTestStringConvertible {
        case fromTheStart
        case afterTheReset
        var testDescription: String { rawValue }
    }

    @Test(arguments: Reading.allCases)
    func bytesThatArrivedBeforeAResetAreDeliveredBeforeTheClose(_ reading: Reading) async throws {
        let (local, peer) = try Self.connectedPair()
        let lastWords = Array("the last words before the reset".utf8)
        #expect(lastWords.withUnsafeBytes { send(peer, $0.baseAddress, $0.count, 0) } == lastWords.count)
        // Closing with a zero linger time sends a reset instead of an orderly end of stream.
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        #expect(setsockopt(peer, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size)) == 0)
        close(peer)
        // Both the bytes and the reset are in the kernel before the channel looks at the socket.
        try #require(await Self.waitForReset(on: local), "the reset did not arrive")

        let loop = EventLoop(label: "stream-channel-test")
        let recorder = Recorder()
        let channel = StreamChannel(fd: local, loop: loop, clock: SystemCastClock())
        await Self.onLoop(loop) {
            channel.handler = recorder
            do {
                try channel.startAccepted()
            } catch {
                Issue.record("cannot register the socket: \(error)")
            }
            if reading == .fromTheStart { channel.setReading(true) }
        }
        if reading == .afterTheReset {
            // A few turns of the loop: the reset is reported to a channel that does not read.
            for _ in 0..<3 { await Self.onLoop(loop) {} }
            #expect(!recorder.isClosed, "closed with bytes still unread: \(recorder.events)")
            await Self.onLoop(loop) { channel.setReading(true) }
        }

        try? await recorder.changes.wait(until: "the close", within: .seconds(30)) { recorder.isClosed }
        #expect(recorder.merged == [.read(lastWords), .closed(.connectionReset)])
        await Self.onLoop(loop) { channel.close(error: nil) }
    }

    // MARK: Helpers

    /// Runs `work` on `loop` and waits for it.
    static func onLoop(_ loop: EventLoop, _ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.execute {
                work()
                continuation.resume()
            }
        }
    }

    /// Waits until the kernel reports a reset or hang-up on `fd`, without reading from it.
    static func waitForReset(on fd: Int32) async -> Bool {
        let reset: ()? = try? await pollUntil("a reset on the socket", within: .seconds(30)) {
            var entry = pollfd(fd: fd, events: 0, revents: 0)
            return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLHUP | POLLERR) != 0
        }
        return reset != nil
    }

    /// Two connected TCP sockets on 127.0.0.1: a non-blocking one for the channel, and its
    /// blocking peer.
    static func connectedPair() throws -> (local: Int32, peer: Int32) {
        let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listening >= 0)
        defer { close(listening) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listens = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(listening, raw, length) == 0 && getsockname(listening, raw, &length) == 0
                    && listen(listening, 1) == 0
            }
        }
        try #require(listens, "cannot listen on 127.0.0.1: errno \(errno)")
        let local = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(local >= 0)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                connect(local, raw, length) == 0
            }
        }
        try #require(connected, "cannot connect to the listening socket: errno \(errno)")
        let peer = accept(listening, nil, nil)
        try #require(peer >= 0)
        try #require(fcntl(local, F_SETFL, fcntl(local, F_GETFL) | O_NONBLOCK) == 0)
        return (local, peer)
    }
}
