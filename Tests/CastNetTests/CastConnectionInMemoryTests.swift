import CastCore
import CastNet
import CastNetCore
import CastNetEmbedded
import CastTestSupport
import CastTime
import Testing

/// The framed Cast connection's behaviour, on channels in memory driven by an embedded loop:
/// framing, delivery, the send bound, the frame deadline and the close, step by step with no
/// socket, thread or real time. What only sockets show (TLS, TCP refusals, a mebibyte through
/// the kernel) stays in ``CastConnectionTests``.
@Suite struct CastConnectionInMemoryTests {
    /// Two connections joined by a pair of channels on one loop.
    struct Pair {
        let loop = EmbeddedLoop()
        let client: CastConnection
        let server: CastConnection

        init(configuration: CastConnectionConfiguration = CastConnectionConfiguration()) {
            let (clientEnd, serverEnd) = EmbeddedByteChannel.pair(loop: loop)
            client = CastConnection(channel: clientEnd, configuration: configuration, clock: loop.clock)
            server = CastConnection(channel: serverEnd, configuration: configuration, clock: loop.clock)
        }
    }

    /// A connection whose other end is the test.
    struct Raw {
        let loop = EmbeddedLoop()
        let channel: EmbeddedByteChannel
        let connection: CastConnection

        init(configuration: CastConnectionConfiguration = CastConnectionConfiguration()) {
            channel = EmbeddedByteChannel(loop: loop)
            connection = CastConnection(channel: channel, configuration: configuration, clock: loop.clock)
        }
    }

    /// The next frame of `connection`, running `loop` until it arrives or the connection ends.
    static func nextFrame(of connection: CastConnection, on loop: EmbeddedLoop) async throws -> [UInt8]? {
        try await withDeadline(TestTiming.hangGuard, "a frame") {
            try await loop.run {
                var iterator = connection.frames.makeAsyncIterator()
                return try await iterator.next()
            }
        }
    }

    /// How `connection` closed, running `loop` until it does.
    static func closeError(of connection: CastConnection, on loop: EmbeddedLoop) async throws -> CastConnectionError? {
        try await withDeadline(TestTiming.hangGuard, "the close") {
            try await loop.run { await connection.closed() }
        }
    }

    @Test func framesFlowBothWaysAndAnOrderlyCloseEndsThem() async throws {
        let pair = Pair()
        #expect(pair.client.peerCertificate == nil)
        #expect(pair.client.tlsVersion == nil)
        let bodies: [[UInt8]] = [[1], Array("a CastMessage body".utf8), [UInt8](repeating: 7, count: 65_536)]
        for body in bodies { try pair.client.send(body) }
        for body in bodies {
            #expect(try await Self.nextFrame(of: pair.server, on: pair.loop) == body)
        }
        try pair.server.send([9, 9, 9])
        #expect(try await Self.nextFrame(of: pair.client, on: pair.loop) == [9, 9, 9])
        pair.server.close(reason: "test done")
        #expect(try await Self.nextFrame(of: pair.client, on: pair.loop) == nil)
        #expect(try await Self.closeError(of: pair.client, on: pair.loop) == nil)
    }

    @Test func aFrameDrippedOneByteAtATimeIsDecoded() async throws {
        let raw = Raw()
        let frame = try CastFrameEncoder.encode(Array("dripped".utf8))
        for byte in frame {
            raw.channel.writeInbound([byte])
            raw.loop.run()
        }
        #expect(try await Self.nextFrame(of: raw.connection, on: raw.loop) == Array("dripped".utf8))
        raw.channel.writeInboundEnd()
        #expect(try await Self.nextFrame(of: raw.connection, on: raw.loop) == nil)
    }

    @Test func thePeerClosingMidFrameIsATypedError() async throws {
        let raw = Raw()
        let frame = try CastFrameEncoder.encode([UInt8](repeating: 1, count: 100))
        raw.channel.writeInbound(Array(frame.prefix(50)))
        raw.channel.writeInboundEnd()
        await #expect(throws: CastConnectionError.self) {
            _ = try await Self.nextFrame(of: raw.connection, on: raw.loop)
        }
        #expect(try await Self.closeError(of: raw.connection, on: raw.loop)?.code == .truncatedFrame)
    }

    @Test(arguments: [[0, 0, 0, 0] as [UInt8], [0, 1, 0, 1], [0xFF, 0xFF, 0xFF, 0xFF]])
    func aBadFrameHeaderClosesWithAFramingError(header: [UInt8]) async throws {
        let raw = Raw()
        raw.channel.writeInbound(header + [1, 2, 3])
        var thrown: CastConnectionError?
        do {
            _ = try await Self.nextFrame(of: raw.connection, on: raw.loop)
        } catch let error as CastConnectionError {
            thrown = error
        }
        #expect(thrown?.code == .framing)
        #expect(thrown?.underlying is FrameError)
        #expect(raw.channel.isClosed)
    }

    @Test func anOversizedOrEmptyBodyIsRefusedAndTheConnectionStaysOpen() async throws {
        let pair = Pair()
        #expect {
            try pair.client.send([UInt8](repeating: 0, count: 65_537))
        } throws: { error in
            (error as? CastConnectionError)?.code == .messageTooLarge
        }
        #expect(throws: CastConnectionError.self) { try pair.client.send([]) }
        try pair.client.send([1])
        #expect(try await Self.nextFrame(of: pair.server, on: pair.loop) == [1])
    }

    @Test func aPeerThatNeverReadsHitsTheSendQueueBoundAtTheFifthFrame() async throws {
        var configuration = CastConnectionConfiguration()
        configuration.sendQueueLimit = 256 * 1024
        // Nobody takes the client's frames: the server end never reads.
        let pair = Pair(configuration: configuration)
        let body = [UInt8](repeating: 0x55, count: 60_000)
        var sent = 0
        var failure: CastConnectionError?
        while failure == nil, sent < 100 {
            do throws(CastConnectionError) {
                try pair.server.send(body)
                sent += 1
            } catch {
                failure = error
            }
            pair.loop.run()
        }
        // Four frames (240,016 bytes) wait; a fifth would pass 256 KiB.
        #expect(sent == 4)
        #expect(failure?.code == .sendQueueFull)
        #expect(try await Self.closeError(of: pair.server, on: pair.loop)?.code == .sendQueueFull)
    }

    @Test func aHandlerEchoesEveryFrameInOrder() async throws {
        let pair = Pair()
        let server = pair.server
        server.setFrameHandler { frame in try? server.send(frame.reversed()) }
        for index in 0..<100 {
            let body = [UInt8(index), 1, 2]
            try pair.client.send(body)
            #expect(try await Self.nextFrame(of: pair.client, on: pair.loop) == body.reversed())
        }
        pair.client.close()
        #expect(try await Self.closeError(of: pair.client, on: pair.loop) == nil)
    }

    @Test func aTrickledFrameRunsOutOfTimeOnTheManualClock() async throws {
        var configuration = CastConnectionConfiguration()
        configuration.frameTimeout = .seconds(2)
        let raw = Raw(configuration: configuration)
        raw.connection.setFrameHandler { _ in }
        let frame = try CastFrameEncoder.encode([UInt8](repeating: 3, count: 40))
        raw.channel.writeInbound(Array(frame.prefix(10)))
        raw.loop.advance(by: .seconds(1))
        raw.channel.writeInbound(Array(frame[10..<20]))
        raw.loop.advance(by: .milliseconds(999))
        #expect(!raw.channel.isClosed, "the frame began 1.999 s ago")
        raw.loop.advance(by: .milliseconds(1))
        let error = try await Self.closeError(of: raw.connection, on: raw.loop)
        #expect(error?.code == .frameTimeout)
        #expect(error?.reason.contains("20 of its bytes arrived") == true)
    }

    @Test func aTransportFailureClosesWithTheTransportError() async throws {
        struct Reset: Error, CustomStringConvertible {
            var description: String { "connection reset by peer" }
        }
        let raw = Raw()
        raw.channel.fail(with: Reset())
        let error = try await Self.closeError(of: raw.connection, on: raw.loop)
        #expect(error?.code == .transport)
        #expect(error?.reason == "connection reset by peer")
        #expect(error?.underlying is Reset)
        #expect(throws: CastConnectionError.self) { try raw.connection.send([1]) }
    }
}
