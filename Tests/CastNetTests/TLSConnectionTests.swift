import CastNet
import CastTestSupport
import CastTime
import Foundation
import Testing

/// TLS over real loopback sockets: our client and server together, and each against the
/// `openssl` command line tools.
@Suite(.requires(.openssl)) struct TLSConnectionTests {
    private func receive(_ count: Int, from connection: TCPConnection) async throws -> [UInt8] {
        var received: [UInt8] = []
        while received.count < count {
            guard let bytes = try await connection.receive() else { break }
            received += bytes
        }
        return received
    }

    /// A port that was free a moment ago, for tools that cannot report the one they bound.
    private func freePort() throws -> Int {
        let probe = try TCPListener(address: .loopbackIPv4())
        defer { probe.close() }
        return probe.localAddress.port
    }

    @Test(arguments: [TLSVersion.v1_2, .v1_3])
    func ourClientAndServerExchangeData(version: TLSVersion) async throws {
        var server = TestIdentity.server.serverConfiguration
        server.maximumVersion = version
        let listener = try TCPListener(address: .loopbackIPv4(), tls: server)
        defer { listener.close() }
        let echo = Task {
            var iterator = listener.connections.makeAsyncIterator()
            guard let connection = await iterator.next() else { throw TestFailure("no connection") }
            var total = 0
            while let bytes = try await connection.receive() {
                total += bytes.count
                try await connection.send(bytes)
            }
            connection.close()
            return total
        }
        let client = try await TCPConnection.connect(to: listener.localAddress, tls: TLSClientConfiguration())
        #expect(client.tlsVersion == (version == .v1_3 ? "TLSv1.3" : "TLSv1.2"))
        #expect(client.peerCertificateDER == (try TestIdentity.server.certificateDER()))

        let small = Array("hello".utf8)
        try await client.send(small)
        #expect(try await receive(small.count, from: client) == small)

        let large = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        async let echoed = receive(large.count, from: client)
        try await client.send(large)
        #expect(try await echoed == large)

        client.shutdownOutput()
        #expect(try await client.receive() == nil)
        #expect(try await echo.value == small.count + large.count)
    }

    @Test func byteAtATimeWritesArriveIntact() async throws {
        let listener = try TCPListener(address: .loopbackIPv4(), tls: TestIdentity.server.serverConfiguration)
        defer { listener.close() }
        let message = Array("a message sent one byte per TLS record".utf8)
        let server = Task {
            var iterator = listener.connections.makeAsyncIterator()
            guard let connection = await iterator.next() else { throw TestFailure("no connection") }
            return try await receive(message.count, from: connection)
        }
        let client = try await TCPConnection.connect(to: listener.localAddress, tls: TLSClientConfiguration())
        for byte in message { try await client.send([byte]) }
        #expect(try await server.value == message)
        client.close()
    }

    @Test func verifyingClientRejectsAnUntrustedServer() async throws {
        let listener = try TCPListener(address: .loopbackIPv4(), tls: TestIdentity.server.serverConfiguration)
        defer { listener.close() }
        var client = TLSClientConfiguration()
        client.verification = .trustRoots([TestIdentity.other.certificate])
        await #expect {
            try await TCPConnection.connect(to: listener.localAddress, tls: client)
        } throws: { error in
            (error as? TLSError)?.code == .certificateRejected
        }
    }

    @Test func serverSurvivesGarbageInsteadOfClientHello() async throws {
        let listener = try TCPListener(address: .loopbackIPv4(), tls: TestIdentity.server.serverConfiguration)
        defer { listener.close() }
        let plain = try await TCPConnection.connect(to: listener.localAddress)
        try await plain.send(Array("GET / HTTP/1.1\r\nHost: example\r\n\r\n".utf8))
        // The server answers with an alert (or nothing) and closes.
        var closed = false
        while !closed {
            do {
                closed = try await plain.receive() == nil
            } catch {
                closed = true
            }
        }
        // The listener still serves a real client.
        let client = try await TCPConnection.connect(to: listener.localAddress, tls: TLSClientConfiguration())
        var iterator = listener.connections.makeAsyncIterator()
        let accepted = try #require(await iterator.next())
        try await client.send([42])
        #expect(try await accepted.receive() == [42])
        client.close()
    }

    @Test func handshakeTimeoutFiresOnTheInjectedClock() async throws {
        // A plain listener accepts and never answers the ClientHello.
        let silent = try TCPListener(address: .loopbackIPv4())
        defer { silent.close() }
        let clock = ManualCastClock()
        var configuration = TLSClientConfiguration()
        configuration.handshakeTimeout = .seconds(5)
        let task = Task {
            try await TCPConnection.connect(
                to: silent.localAddress,
                tls: configuration,
                timeout: .seconds(3600),
                clock: clock
            )
        }
        var iterator = silent.connections.makeAsyncIterator()
        let accepted = try #require(await iterator.next())
        // Only the handshake timer falls due within 5 s (the connect timer is an hour).
        await clock.waitForScheduledTimers(count: 1, dueWithin: .seconds(5))
        clock.advance(by: .seconds(5))
        await #expect {
            try await task.value
        } throws: { error in
            (error as? TLSError)?.code == .handshakeTimedOut
        }
        accepted.close()
    }

    @Test func ourClientTalksToOpenSSLServer() async throws {
        let identity = TestIdentity.server
        // s_server binds a port it is given, free a moment before: a parallel test can take it
        // in between, so a server that does not come up is tried again on another.
        var started: (server: ChildProcess, port: Int)?
        for _ in 0..<5 where started == nil {
            let port = try freePort()
            let candidate = try ChildProcess(
                try opensslPath(),
                [
                    "s_server", "-accept", "127.0.0.1:\(port)", "-cert", identity.certificatePath, "-key",
                    identity.keyPath,
                ]
            )
            if await candidate.waitForOutput(containing: "ACCEPT") {
                started = (candidate, port)
            } else {
                candidate.kill()
            }
        }
        let (server, port) = try #require(started, "openssl s_server did not start on any of five ports")
        defer { server.kill() }
        let client = try await TCPConnection.connect(
            to: SocketAddress(ipAddress: "127.0.0.1", port: port),
            tls: TLSClientConfiguration()
        )
        #expect(client.peerCertificateDER == (try identity.certificateDER()))
        try await client.send(Array("hello from swift\n".utf8))
        #expect(await server.waitForOutput(containing: "hello from swift"))
        server.write("hello from openssl\n")
        let expected = Array("hello from openssl\n".utf8)
        #expect(try await receive(expected.count, from: client) == expected)
        client.close()
    }

    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func openSSLClientTalksToOurServer(versionFlag: String) async throws {
        let listener = try TCPListener(address: .loopbackIPv4(), tls: TestIdentity.server.serverConfiguration)
        defer { listener.close() }
        let client = try ChildProcess(
            try opensslPath(),
            ["s_client", "-connect", "127.0.0.1:\(listener.localAddress.port)", "-quiet", versionFlag]
        )
        defer { client.kill() }
        var iterator = listener.connections.makeAsyncIterator()
        let accepted = try #require(await iterator.next())
        #expect(accepted.tlsVersion == (versionFlag == "-tls1_3" ? "TLSv1.3" : "TLSv1.2"))
        client.write("hello from s_client\n")
        let expected = Array("hello from s_client\n".utf8)
        #expect(try await receive(expected.count, from: accepted) == expected)
        try await accepted.send(Array("hello from swift\n".utf8))
        #expect(await client.waitForOutput(containing: "hello from swift"))
        accepted.close()
    }
}
