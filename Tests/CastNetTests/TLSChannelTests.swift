import CastCore
import CastTestSupport
import Testing

@testable import CastNet

/// How a TLS channel turns queued writes into records, seen by a client that reads the
/// decrypted stream record by record (as PyChromecast does: one message per readable event).
@Suite(.requires(.openssl)) struct TLSChannelTests {
    @Test func framesQueuedTogetherLeaveInRecordsOfTheirOwn() async throws {
        let replies = [Array("first".utf8), Array("the second reply".utf8), [UInt8](repeating: 0x33, count: 300)]
        // A handshake deadline far beyond the default: this test drives the client's TLS by hand
        // from a test task, which a loaded machine can keep waiting for seconds.
        var tls = TestIdentity.server.serverConfiguration
        tls.handshakeTimeout = .seconds(120)
        let listener = try CastListener(address: .loopbackIPv4(), tls: tls) {
            connection in
            // Sent in one turn of the loop: the connection flushes them together.
            connection.setFrameHandler { _ in
                for reply in replies { try? connection.send(reply) }
            }
        }
        defer { listener.close() }

        // A plain TCP socket with a TLS engine driven by hand, to see each record.
        let socket = try await TCPConnection.connect(to: listener.localAddress)
        defer { socket.close() }
        let engine = try TLSEngine(context: TLSContext(client: TLSClientConfiguration()))
        func sendCiphertext() async throws {
            while let bytes = engine.takeCiphertext() { try await socket.send(bytes) }
        }
        func receiveCiphertext() async throws {
            let bytes = try #require(try await socket.receive(), "the server closed the connection")
            bytes.withUnsafeBytes { engine.receive(ciphertext: $0) }
        }
        while engine.handshake() != .complete {
            try await sendCiphertext()
            try await receiveCiphertext()
        }
        let request = try CastFrameEncoder.encode([1, 2, 3])
        #expect(request.withUnsafeBytes { engine.write($0) } == nil)
        try await sendCiphertext()

        let expected = try replies.map { try CastFrameEncoder.encode($0) }
        var reads: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while reads.reduce(0, { $0 + $1.count }) < expected.reduce(0, { $0 + $1.count }) {
            try await receiveCiphertext()
            while case .bytes(let count) = buffer.withUnsafeMutableBytes({ engine.read(into: $0) }) {
                reads.append(Array(buffer[..<count]))
            }
        }
        // One read returns at most one record: each frame came in records of its own.
        #expect(reads == expected)
    }
}
