import CastNet
import CastNetCore
import CastSync
import CastTestSupport
import Foundation
import Testing

/// ``HTTPResponseStream``: a body written while the client reads it.
@Suite struct HTTPResponseStreamTests {
    private static func server(_ stream: HTTPResponseStream) throws -> HTTPServer {
        var routes = HTTPRoutes()
        routes.add(.get, "/events") { _ in
            HTTPResponse(headers: ["Content-Type": "text/event-stream"], body: .stream(stream))
        }
        var configuration = HTTPServerConfiguration()
        configuration.requestTimeout = TestTiming.patience
        return try HTTPServer(address: .loopbackIPv4(), routes: routes, configuration: configuration)
    }

    @Test func writesArriveInOrderAndFinishClosesTheConnection() async throws {
        let stream = HTTPResponseStream()
        stream.write(Array("early\n".utf8))
        let server = try Self.server(stream)
        defer { server.close() }
        let client = try await TCPConnection.connect(
            to: try SocketAddress(ipAddress: "127.0.0.1", port: server.localAddress.port)
        )
        defer { client.close() }
        try await client.send(Array("GET /events HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        for index in 1...100 { #expect(stream.write(Array("line \(index)\n".utf8))) }
        stream.finish()
        let all = try await withDeadline(
            TestTiming.patience,
            onTimeout: { client.close() },
            body: {
                var all: [UInt8] = []
                while let bytes = try await client.receive() { all += bytes }
                return all
            }
        )
        let text = String(decoding: all, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        #expect(parts.first?.hasPrefix("HTTP/1.1 200") == true)
        #expect(parts.first?.contains("Content-Length") == false)
        #expect(parts.first?.contains("Connection: close") == true)
        let expected = "early\n" + (1...100).map { "line \($0)\n" }.joined()
        #expect(parts.dropFirst().joined(separator: "\r\n\r\n") == expected)
        #expect(stream.isClosed)
        #expect(!stream.write([1]))
    }

    /// A client that never reads is dropped once its unread bytes pass the limit: the writer
    /// learns it from `write` and `onClose`, and memory never grows past the kernel's buffers
    /// and the limit.
    @Test func aClientThatStopsReadingIsDropped() async throws {
        let stream = HTTPResponseStream(bufferLimit: 64 * 1024)
        let closed = Locked(false)
        // The close handler runs on the connection's loop, after the stream already refuses
        // writes: the test awaits it rather than reading the flag at once.
        let (closeEvents, closeSignal) = AsyncStream.makeStream(of: Void.self)
        stream.onClose {
            closed.withLock { $0 = true }
            closeSignal.yield()
            closeSignal.finish()
        }
        let server = try Self.server(stream)
        defer { server.close() }
        let client = try await TCPConnection.connect(
            to: try SocketAddress(ipAddress: "127.0.0.1", port: server.localAddress.port)
        )
        defer { client.close() }
        try await client.send(Array("GET /events HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        let chunk = [UInt8](repeating: 0x61, count: 16 * 1024)
        var written = 0
        let end = ContinuousClock.now + TestTiming.patience
        // Kernel socket buffers on loopback hold a few MiB at most; 256 MiB is far past them.
        while stream.write(chunk), written < 256 << 20, ContinuousClock.now < end {
            written += chunk.count
            // A pause, not a wait for state: a producer over a real socket that never
            // suspended would hold a thread of the shared pool for all 256 MiB.
            if written % (1 << 20) == 0 { try await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(written < 256 << 20)
        let sawClose = try await withDeadline(
            TestTiming.patience,
            "the stream's close handler",
            onTimeout: { closeSignal.finish() },
            body: {
                for await _ in closeEvents { return true }
                return false
            }
        )
        #expect(sawClose)
        #expect(closed.withLock { $0 })
        #expect(stream.isClosed)
    }

    /// A client behind by more than the limit skips snapshots: of fifty written before it
    /// connected, it gets the ten that fit in the limit and then the newest, in order.
    @Test func aClientThatFallsBehindSkipsToTheNewestSnapshot() async throws {
        let stream = HTTPResponseStream(bufferLimit: 1024)
        func snapshot(_ index: Int) -> [UInt8] {
            let text = "snapshot \(index)"
            return Array((text + String(repeating: ".", count: 99 - text.count) + "\n").utf8)
        }
        for index in 1...50 { #expect(stream.writeSnapshot(snapshot(index))) }
        let server = try Self.server(stream)
        defer { server.close() }
        let client = try await TCPConnection.connect(
            to: try SocketAddress(ipAddress: "127.0.0.1", port: server.localAddress.port)
        )
        defer { client.close() }
        try await client.send(Array("GET /events HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        let newest = snapshot(50)
        let all = try await withDeadline(
            TestTiming.patience,
            onTimeout: { client.close() },
            body: {
                var all: [UInt8] = []
                while let bytes = try await client.receive() {
                    all += bytes
                    // The newest snapshot arrived: it was sent when the connection drained.
                    if all.count >= newest.count, Array(all.suffix(newest.count)) == newest { stream.finish() }
                }
                return all
            }
        )
        let body = String(decoding: all, as: UTF8.self).components(separatedBy: "\r\n\r\n").dropFirst()
            .joined(separator: "\r\n\r\n")
        let expected = ((1...10).map(snapshot) + [newest]).map { String(decoding: $0, as: UTF8.self) }.joined()
        #expect(body == expected)
        #expect(!stream.writeSnapshot(newest), "a finished stream takes nothing")
    }

    /// Snapshots never drop a client that reads, but a client that never reads is still
    /// dropped once the socket queue passes the limit, and nothing grows past it meanwhile.
    @Test func aClientThatStopsReadingSnapshotsIsDropped() async throws {
        let stream = HTTPResponseStream(bufferLimit: 64 * 1024)
        let closed = Locked(false)
        // The close handler runs on the connection's loop, after the stream already refuses
        // writes: the test awaits it rather than reading the flag at once.
        let (closeEvents, closeSignal) = AsyncStream.makeStream(of: Void.self)
        stream.onClose {
            closed.withLock { $0 = true }
            closeSignal.yield()
            closeSignal.finish()
        }
        let server = try Self.server(stream)
        defer { server.close() }
        let client = try await TCPConnection.connect(
            to: try SocketAddress(ipAddress: "127.0.0.1", port: server.localAddress.port)
        )
        defer { client.close() }
        try await client.send(Array("GET /events HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        let chunk = [UInt8](repeating: 0x61, count: 16 * 1024)
        var written = 0
        let end = ContinuousClock.now + TestTiming.patience
        while !closed.withLock({ $0 }), ContinuousClock.now < end {
            if !stream.writeSnapshot(chunk) { break }
            written += 1
            // A pause, not a wait for state: a producer over a real socket that never
            // suspended would hold a thread of the shared pool until the close.
            if written % 64 == 0 { try await Task.sleep(for: .milliseconds(1)) }
        }
        let sawClose = try await withDeadline(
            TestTiming.patience,
            "the stream's close handler",
            onTimeout: { closeSignal.finish() },
            body: {
                for await _ in closeEvents { return true }
                return false
            }
        )
        #expect(sawClose)
        #expect(closed.withLock { $0 })
        #expect(stream.isClosed)
        #expect(!stream.writeSnapshot(chunk))
    }
}
