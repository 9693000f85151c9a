import CastNetCore
import CastSync
import CastTestSupport
import Testing

@testable import CastNet

/// A loopback HTTP server that answers every request with a script written in the test: the
/// hostile servers of the resource budget (docs/security.md), over real sockets.
final class ScriptedHTTPServer: Sendable {
    let listener: TCPListener
    let task: Task<Void, Never>
    /// Connections the client closed while the script still ran.
    let closedByClient = WatchedCount()

    var url: String { "http://127.0.0.1:\(listener.localAddress.port)/media" }

    /// - Parameter script: writes the response; it runs until it returns, throws (the client
    ///   went away) or the server closes.
    init(_ script: @escaping @Sendable (TCPConnection) async throws -> Void) throws {
        let listener = try TCPListener(address: .loopbackIPv4())
        self.listener = listener
        let closed = closedByClient
        task = Task {
            await withTaskGroup(of: Void.self) { group in
                for await connection in listener.connections {
                    group.addTask {
                        defer { connection.close() }
                        var request: [UInt8] = []
                        while !(request.count >= 4 && Array(request.suffix(4)) == Array("\r\n\r\n".utf8)) {
                            guard let bytes = try? await connection.receive(), request.count < 8192 else { return }
                            request += bytes
                        }
                        do {
                            try await script(connection)
                        } catch is CancellationError {
                        } catch {
                            closed.add()
                        }
                    }
                }
            }
        }
    }

    func close() {
        listener.close()
        task.cancel()
    }
}

/// The HTTP client against servers that try to make it hold memory, descriptors or a core:
/// every read ends with a typed error within its limits.
@Suite struct HTTPClientHostileServerTests {
    static func client(timeout: Duration = .seconds(60)) -> HTTPClient {
        var client = HTTPClient()
        client.timeout = timeout
        client.maximumBodySize = 16 << 20
        return client
    }

    /// Runs `body`, expecting it to throw an ``HTTPParseError`` with `code`.
    static func expectParseError(
        _ code: HTTPParseError.Code,
        _ body: () async throws -> some Sendable
    ) async {
        do {
            _ = try await body()
            Issue.record("the read succeeded")
        } catch let error as HTTPParseError {
            #expect(error.code == code, "\(error)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func endlessContinueResponsesEndWithinTheHeadLimit() async throws {
        let server = try ScriptedHTTPServer { connection in
            let interim = Array(String(repeating: "HTTP/1.1 100 Continue\r\n\r\n", count: 2_000).utf8)
            while true { try await connection.send(interim) }
        }
        defer { server.close() }
        do {
            _ = try await Self.client().get(server.url)
            Issue.record("the read succeeded")
        } catch let error as HTTPParseError {
            // The limit falls inside a head: its start line or its fields.
            #expect(error.code == .headersTooLarge || error.code == .startLineTooLong, "\(error)")
        }
    }

    @Test func aFewContinueResponsesBeforeTheAnswerAreSkipped() async throws {
        let server = try ScriptedHTTPServer { connection in
            try await connection.send(Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n".utf8))
            try await connection.send(Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello".utf8))
        }
        defer { server.close() }
        let response = try await Self.client().get(server.url)
        #expect(response.status.code == 200 && response.body == Array("hello".utf8))
    }

    @Test func chunkExtensionsAreCappedAsNodeCapsThem() async throws {
        let server = try ScriptedHTTPServer { connection in
            try await connection.send(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
            let chunk = Array(("1;" + String(repeating: "e", count: 1_000) + "\r\nX\r\n").utf8)
            while true { try await connection.send(Array([[UInt8]](repeating: chunk, count: 64).joined())) }
        }
        defer { server.close() }
        await Self.expectParseError(.malformedChunk) { try await Self.client().get(server.url) }
    }

    @Test func oneByteChunksWithoutExtensionsStillMakeTheBody() async throws {
        let server = try ScriptedHTTPServer { connection in
            try await connection.send(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
            for _ in 0..<2_000 { try await connection.send(Array("1\r\nX\r\n".utf8)) }
            try await connection.send(Array("0\r\nX-Checksum: 1\r\n\r\n".utf8))
        }
        defer { server.close() }
        let response = try await Self.client().get(server.url)
        #expect(response.body.count == 2_000)
    }

    @Test func anEndlessTrailerEndsTheRead() async throws {
        let server = try ScriptedHTTPServer { connection in
            try await connection.send(
                Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nbody\r\n0\r\n".utf8)
            )
            let junk = Array(("X-Trailer: " + String(repeating: "a", count: 16_000)).utf8)
            while true { try await connection.send(junk) }
        }
        defer { server.close() }
        await Self.expectParseError(.headersTooLarge) { try await Self.client().get(server.url) }
    }

    @Test func anEndlessTrailerEndsAFollowedStream() async throws {
        let server = try ScriptedHTTPServer { connection in
            try await connection.send(
                Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nbody\r\n0\r\n".utf8)
            )
            let junk = Array(("X-Trailer: " + String(repeating: "a", count: 16_000)).utf8)
            while true { try await connection.send(junk) }
        }
        defer { server.close() }
        let received = Locked(0)
        await Self.expectParseError(.headersTooLarge) {
            try await Self.client().follow(server.url, shouldContinue: { true }) { piece in
                received.withLock { $0 += piece.count }
            }
        }
        #expect(received.withLock { $0 } == 4)
    }

    @Test func aFollowedStreamThatFallsSilentEndsAfterTheIdleTimeout() async throws {
        let server = try ScriptedHTTPServer { connection in
            try await connection.send(Array("HTTP/1.1 200 OK\r\nContent-Type: video/webm\r\n\r\nfirst bytes".utf8))
            while try await connection.receive() != nil {}
            throw TCPError.closed
        }
        defer { server.close() }
        do {
            _ = try await Self.client().follow(
                server.url,
                checkInterval: .milliseconds(50),
                idleTimeout: .milliseconds(300),
                shouldContinue: { true }
            )
            Issue.record("the silent stream was followed to an end")
        } catch let error as TCPError {
            #expect(error.code == .timedOut && error.operation.contains("no bytes within"), "\(error)")
        }
        try await server.closedByClient.wait(until: "the server to see the connection closed", within: .seconds(60)) {
            $0 >= 1
        }
    }

    /// A connect the peer never completes holds its socket only until the task is cancelled:
    /// with a ten-minute timeout, only cancelling can have closed it.
    @Test func cancellingAConnectClosesItsSocketAtOnce() async throws {
        let port = try FullBacklogPort()
        let before = port.connectingSockets
        let attempt = Task {
            try await TCPConnection.connect(host: "127.0.0.1", port: port.port, timeout: .seconds(600))
        }
        try await pollUntil("the connect to be under way") { port.connectingSockets > before }
        attempt.cancel()
        await #expect(throws: CancellationError.self) { _ = try await attempt.value }
        try await pollUntil("the cancelled connect's socket to close") { port.connectingSockets <= before }
    }

    @Test func cancellingAnHTTPRequestDuringItsConnectClosesTheSocket() async throws {
        let port = try FullBacklogPort()
        let before = port.connectingSockets
        let request = Task { try await Self.client(timeout: .seconds(600)).get("http://127.0.0.1:\(port.port)/x") }
        try await pollUntil("the connect to be under way") { port.connectingSockets > before }
        request.cancel()
        await #expect(throws: CancellationError.self) { _ = try await request.value }
        try await pollUntil("the cancelled request's socket to close") { port.connectingSockets <= before }
    }
}

/// The response parser's bounds, byte by byte: what a server can make it keep.
@Suite struct HTTPResponseParserBoundTests {
    /// Feeds `bytes` in pieces of `piece` bytes until the parser answers or throws.
    static func feed(
        _ parser: inout HTTPResponseParser,
        _ bytes: [UInt8],
        piece: Int
    ) throws -> HTTPClientResponse? {
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + piece)
            parser.append(bytes[index..<end])
            index = end
            if let response = try parser.nextResponse() { return response }
            #expect(parser.bufferedByteCount <= 64 * 1024 + piece, "the parser keeps \(parser.bufferedByteCount) bytes")
        }
        return nil
    }

    @Test(arguments: [1, 7, 4096])
    func interimResponsesCountTowardTheHeadLimit(piece: Int) {
        var parser = HTTPResponseParser(requestMethod: .get)
        let bytes = Array(String(repeating: "HTTP/1.1 100 Continue\r\n\r\n", count: 3_000).utf8)
        #expect(throws: HTTPParseError.self) { _ = try Self.feed(&parser, bytes, piece: piece) }
    }

    @Test func theChunkedFramingIsDroppedAsTheBodyGrows() throws {
        var parser = HTTPResponseParser(requestMethod: .get, maximumBodySize: 1 << 20)
        var bytes = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        for _ in 0..<20_000 { bytes += Array("1\r\nX\r\n".utf8) }
        bytes += Array("0\r\n\r\n".utf8)
        var index = 0
        var response: HTTPClientResponse?
        while index < bytes.count, response == nil {
            let end = min(bytes.count, index + 1500)
            parser.append(bytes[index..<end])
            index = end
            response = try parser.nextResponse()
            // The body so far plus at most what arrived since the last compaction.
            #expect(parser.bufferedByteCount <= 20_000 + 16 * 1024 + 1500)
        }
        #expect(response?.body.count == 20_000)
    }

    @Test func aHeadSplitAtEveryByteParsesAsAWholeOne() throws {
        let text = "\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-A: b\r\n\r\nok"
        for split in 1..<text.utf8.count {
            var parser = HTTPResponseParser(requestMethod: .get)
            let bytes = Array(text.utf8)
            parser.append(bytes[..<split])
            var response = try parser.nextResponse()
            if response == nil {
                parser.append(bytes[split...])
                response = try parser.nextResponse()
            }
            #expect(response?.status.code == 200 && response?.body == Array("ok".utf8), "split at \(split)")
            #expect(response?.headers["X-A"] == "b")
        }
    }
}
