import CastNetCore
import CastNetEmbedded
import CastSync
import Testing

/// An embedded channel behaves as a socket does toward its handler: reads only while reading
/// is on and at most `maximumReadSize` at a time, the end of the stream after the bytes before
/// it, writes pending until the other end takes them, one close.
@Suite struct EmbeddedByteChannelTests {
    /// Records what a channel tells its handler.
    final class RecordingHandler: ByteChannelHandler {
        enum Event: Equatable {
            case read([UInt8])
            case endOfFile
            case drained
            case closed(String?)
        }

        private let recorded = Locked<[Event]>([])
        var events: [Event] { recorded.withLock { $0 } }
        var bytesRead: [UInt8] {
            events.flatMap { event -> [UInt8] in
                if case .read(let bytes) = event { return bytes }
                return []
            }
        }

        func channelDidBecomeActive(_ channel: any ByteChannel) {}
        func channel(_ channel: any ByteChannel, didRead bytes: UnsafeRawBufferPointer) {
            recorded.withLock { $0.append(.read(Array(bytes))) }
        }
        func channelDidReadEndOfFile(_ channel: any ByteChannel) { recorded.withLock { $0.append(.endOfFile) } }
        func channelDidDrain(_ channel: any ByteChannel) { recorded.withLock { $0.append(.drained) } }
        func channel(_ channel: any ByteChannel, didCloseWith error: (any Error)?) {
            recorded.withLock { $0.append(.closed(error.map { "\($0)" })) }
        }
    }

    struct Broken: Error, CustomStringConvertible {
        var description: String { "broken pipe" }
    }

    @Test func injectedBytesArriveOnlyWhileReadingInPiecesOfTheReadSize() {
        let loop = EmbeddedLoop()
        let channel = EmbeddedByteChannel(loop: loop)
        let handler = RecordingHandler()
        channel.handler = handler
        channel.maximumReadSize = 4
        channel.writeInbound(Array(1...10))
        channel.writeInboundEnd()
        loop.run()
        #expect(handler.events.isEmpty, "nothing is read while reading is off")
        channel.setReading(true)
        loop.run()
        #expect(
            handler.events == [.read([1, 2, 3, 4]), .read([5, 6, 7, 8]), .read([9, 10]), .endOfFile]
        )
    }

    @Test func writesArePendingUntilTheTestTakesThemThenTheChannelDrains() {
        let loop = EmbeddedLoop()
        let channel = EmbeddedByteChannel(loop: loop)
        let handler = RecordingHandler()
        channel.handler = handler
        channel.write([1, 2])
        channel.write(messages: [[3], [4, 5]])
        #expect(channel.pendingWriteBytes == 5)
        #expect(channel.written == [[1, 2], [3, 4, 5]])
        #expect(channel.readOutbound() == [1, 2, 3, 4, 5])
        #expect(channel.pendingWriteBytes == 0)
        loop.run()
        #expect(handler.events == [.drained])
        #expect(channel.readOutbound().isEmpty)
    }

    @Test func aGracefulCloseWaitsForTheWritesToBeTaken() {
        let loop = EmbeddedLoop()
        let channel = EmbeddedByteChannel(loop: loop)
        let handler = RecordingHandler()
        channel.handler = handler
        channel.write([7])
        channel.closeGracefully()
        #expect(!channel.isClosed)
        _ = channel.readOutbound()
        loop.run()
        #expect(channel.isClosed)
        #expect(handler.events == [.closed(nil)])
    }

    @Test func anInjectedErrorClosesOnceAndLaterWritesAreDropped() {
        let loop = EmbeddedLoop()
        let channel = EmbeddedByteChannel(loop: loop)
        let handler = RecordingHandler()
        channel.handler = handler
        channel.setReading(true)
        channel.fail(with: Broken())
        loop.run()
        channel.close(error: nil)
        channel.write([1])
        channel.writeInbound([2])
        loop.run()
        #expect(handler.events == [.closed("broken pipe")])
        #expect(channel.written.isEmpty)
        #expect(channel.closeError is Broken)
    }

    @Test func aPairCarriesBytesBothWaysWithBackpressure() {
        let loop = EmbeddedLoop()
        let (client, server) = EmbeddedByteChannel.pair(loop: loop)
        let clientEvents = RecordingHandler()
        let serverEvents = RecordingHandler()
        client.handler = clientEvents
        server.handler = serverEvents
        client.write(Array("hello".utf8))
        loop.run()
        // The server is not reading: the bytes stay pending on the client's side.
        #expect(serverEvents.events.isEmpty)
        #expect(client.pendingWriteBytes == 5)
        server.setReading(true)
        loop.run()
        #expect(serverEvents.bytesRead == Array("hello".utf8))
        #expect(client.pendingWriteBytes == 0)
        #expect(clientEvents.events == [.drained])

        client.setReading(true)
        server.write(Array("world".utf8))
        server.shutdownOutput()
        server.write([0])
        loop.run()
        #expect(clientEvents.events.suffix(2) == [.read(Array("world".utf8)), .endOfFile])
        #expect(server.isOutputShut)
    }

    @Test func closingOneEndOfAPairEndsTheOthersStream() {
        let loop = EmbeddedLoop()
        let (client, server) = EmbeddedByteChannel.pair(loop: loop)
        let serverEvents = RecordingHandler()
        server.handler = serverEvents
        server.setReading(true)
        client.write([9])
        client.close(error: nil)
        loop.run()
        #expect(serverEvents.events == [.read([9]), .endOfFile])
        #expect(!server.isClosed)
        #expect(client.isClosed)
    }
}
