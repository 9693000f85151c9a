import CastCore
import CastNet
import CastNetCore
import CastTestSupport
import Testing

/// The framed Cast connection over real loopback TLS: what only sockets show (the TLS peer,
/// a handshake refused, a mebibyte through the kernel, a refused connect). Its behaviour
/// (framing, the send bound, the frame deadline) is in ``CastConnectionInMemoryTests``.
@Suite(.requires(.openssl)) struct CastConnectionTests {
    private func makeListener(
        configuration: CastConnectionConfiguration = CastConnectionConfiguration(),
        handler: (@Sendable (CastConnection) -> Void)? = nil
    ) throws -> CastListener {
        try CastListener(
            address: .loopbackIPv4(),
            tls: TestIdentity.server.serverConfiguration,
            configuration: configuration,
            handler: handler
        )
    }

    private func accept(_ listener: CastListener) async throws -> CastConnection {
        var iterator = listener.connections.makeAsyncIterator()
        return try #require(await iterator.next())
    }

    @Test func framesFlowBothWays() async throws {
        let listener = try makeListener()
        defer { listener.close() }
        let client = try await CastConnection.connect(to: listener.localAddress)
        let server = try await accept(listener)
        #expect(client.peerCertificate == TestIdentity.server.certificate)
        #expect(client.tlsVersion == "TLSv1.3")

        let bodies: [[UInt8]] = [[1], Array("a CastMessage body".utf8), [UInt8](repeating: 7, count: 65_536)]
        for body in bodies { try client.send(body) }
        var received: [[UInt8]] = []
        for try await frame in server.frames {
            received.append(frame)
            if received.count == bodies.count { break }
        }
        #expect(received == bodies)

        try server.send([9, 9, 9])
        var iterator = client.frames.makeAsyncIterator()
        #expect(try await iterator.next() == [9, 9, 9])

        server.close(reason: "test done")
        #expect(try await iterator.next() == nil)
        #expect(await client.closed() == nil)
    }

    @Test func oneMebibyteOfFramesArrivesInOrder() async throws {
        let listener = try makeListener()
        defer { listener.close() }
        let client = try await CastConnection.connect(to: listener.localAddress)
        let server = try await accept(listener)
        let bodies = (0..<16).map { index in [UInt8](repeating: UInt8(index), count: 65_536) }
        // The whole mebibyte is more than the default send bound: pace with flush().
        let sender = Task {
            for (index, body) in bodies.enumerated() {
                try client.send(body)
                if index % 4 == 3 { try await client.flush() }
            }
        }
        var iterator = server.frames.makeAsyncIterator()
        for body in bodies {
            #expect(try await iterator.next() == body)
        }
        try await sender.value
        client.close()
    }

    @Test func plainTCPGarbageNeverBecomesAConnection() async throws {
        let listener = try makeListener()
        defer { listener.close() }
        let plain = try await TCPConnection.connect(to: listener.localAddress)
        try await plain.send([UInt8](repeating: 0x41, count: 300))
        var ended = false
        while !ended {
            do {
                ended = try await plain.receive() == nil
            } catch {
                ended = true
            }
        }
        let client = try await CastConnection.connect(to: listener.localAddress)
        let server = try await accept(listener)
        try client.send([5])
        var iterator = server.frames.makeAsyncIterator()
        #expect(try await iterator.next() == [5])
        client.close()
    }

    @Test func connectingToNothingIsATypedTransportError() async throws {
        let refusing = try RefusingPort()
        let address = SocketAddress.loopbackIPv4(port: refusing.port)
        await #expect {
            try await CastConnection.connect(to: address)
        } throws: { error in
            (error as? TCPError)?.code == .connectionRefused
        }
        withExtendedLifetime(refusing) {}
    }
}
