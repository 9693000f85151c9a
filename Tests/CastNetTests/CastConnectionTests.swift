import CastCore
import CastNet
import CastNetCore
import CastTestSupport
import Testing

/// The framed Cast connection over real loopback TLS.
@Suite struct CastConnectionTests {
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

    /// A TLS byte stream to the listener, for sending bytes a well-behaved peer would not.
    private func rawClient(_ listener: CastListener) async throws -> TCPConnection {
        try await TCPConnection.connect(to: listener.localAddress, tls: TLSClientConfiguration())
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

    @Test func frameSentOneByteAtATimeIsDecoded() async throws {
        let listener = try makeListener()
        defer { listener.close() }
        let raw = try await rawClient(listener)
        let server = try await accept(listener)
        let frame = try CastFrameEncoder.encode(Array("dripped".utf8))
        for byte in frame { try await raw.send([byte]) }
        var iterator = server.frames.makeAsyncIterator()
        #expect(try await iterator.next() == Array("dripped".utf8))
        raw.close()
        #expect(try await iterator.next() == nil)
    }

    @Test func peerClosingMidFrameIsATypedError() async throws {
        let listener = try makeListener()
        defer { listener.close() }
        let raw = try await rawClient(listener)
        let server = try await accept(listener)
        let frame = try CastFrameEncoder.encode([UInt8](repeating: 1, count: 100))
        try await raw.send(Array(frame.prefix(50)))
        raw.shutdownOutput()
        await #expect(throws: CastConnectionError.self) {
            for try await _ in server.frames {}
        }
        #expect(await server.closed()?.code == .truncatedFrame)
    }

    @Test(arguments: [[0, 0, 0, 0] as [UInt8], [0, 1, 0, 1], [0xFF, 0xFF, 0xFF, 0xFF]])
    func badFrameHeaderClosesWithFramingError(header: [UInt8]) async throws {
        let listener = try makeListener()
        defer { listener.close() }
        let raw = try await rawClient(listener)
        let server = try await accept(listener)
        try await raw.send(header + [1, 2, 3])
        var thrown: CastConnectionError?
        do {
            for try await _ in server.frames {}
        } catch {
            thrown = error
        }
        #expect(thrown?.code == .framing)
        #expect(thrown?.underlying is FrameError)
        // The peer sees the connection go away.
        var ended = false
        while !ended {
            do {
                ended = try await raw.receive() == nil
            } catch {
                ended = true
            }
        }
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

    @Test func oversizedOrEmptyBodyIsRefusedAndConnectionStaysOpen() async throws {
        let listener = try makeListener()
        defer { listener.close() }
        let client = try await CastConnection.connect(to: listener.localAddress)
        let server = try await accept(listener)
        #expect {
            try client.send([UInt8](repeating: 0, count: 65_537))
        } throws: { error in
            (error as? CastConnectionError)?.code == .messageTooLarge
        }
        #expect(throws: CastConnectionError.self) { try client.send([]) }
        try client.send([1])
        var iterator = server.frames.makeAsyncIterator()
        #expect(try await iterator.next() == [1])
        client.close()
    }

    @Test func peerThatNeverReadsHitsTheSendQueueBound() async throws {
        var configuration = CastConnectionConfiguration()
        configuration.sendQueueLimit = 256 * 1024
        let listener = try makeListener(configuration: configuration)
        defer { listener.close() }
        let raw = try await rawClient(listener)
        let server = try await accept(listener)
        let body = [UInt8](repeating: 0x55, count: 60_000)
        var sent = 0
        var failure: CastConnectionError?
        // Kernel buffers absorb the first megabytes; then our queue must hit its bound.
        while failure == nil && sent < 20_000 {
            do throws(CastConnectionError) {
                try server.send(body)
                sent += 1
            } catch {
                failure = error
            }
            if sent % 16 == 0 { try await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(failure?.code == .sendQueueFull || failure?.code == .closed)
        #expect(await server.closed()?.code == .sendQueueFull)
        // Far less than was offered was ever accepted: memory stayed bounded.
        #expect(sent < 20_000)
        raw.close()
    }

    @Test func handlerModeEchoesOnTheConnectionQueue() async throws {
        let listener = try makeListener { connection in
            connection.setFrameHandler { frame in
                try? connection.send(frame.reversed())
            }
        }
        defer { listener.close() }
        let client = try await CastConnection.connect(to: listener.localAddress)
        var iterator = client.frames.makeAsyncIterator()
        for index in 0..<100 {
            let body = [UInt8(index), 1, 2]
            try client.send(body)
            #expect(try await iterator.next() == body.reversed())
        }
        client.close()
        #expect(await client.closed() == nil)
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
