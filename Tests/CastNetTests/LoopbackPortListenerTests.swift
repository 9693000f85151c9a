import CastNet
import CastNetCore
import CastTestSupport
import Testing

/// One listening socket serving many loopback addresses: each address's listener gets only
/// its own connections and presents its own certificate.
@Suite(.requires(.openssl)) struct LoopbackPortListenerTests {
    @Test func eachAddressGetsItsOwnConnectionsAndCertificate() async throws {
        let port = try LoopbackPortListener(port: 0)
        defer { port.close() }
        let first = try CastListener(on: port, address: "127.0.0.2", tls: TestIdentity.server.serverConfiguration)
        let second = try CastListener(on: port, address: "127.0.0.3", tls: TestIdentity.other.serverConfiguration)
        defer {
            first.close()
            second.close()
        }
        #expect(first.localAddress.description == "127.0.0.2:\(port.port)")
        #expect(second.localAddress.description == "127.0.0.3:\(port.port)")

        let toSecond = try await CastConnection.connect(to: second.localAddress)
        let toFirst = try await CastConnection.connect(to: first.localAddress)
        #expect(toFirst.peerCertificate == TestIdentity.server.certificate)
        #expect(toSecond.peerCertificate == TestIdentity.other.certificate)

        // Each listener yields the connection made to its address, and a frame crosses it.
        var firstAccepted = first.connections.makeAsyncIterator()
        var secondAccepted = second.connections.makeAsyncIterator()
        let atFirst = try #require(await firstAccepted.next())
        let atSecond = try #require(await secondAccepted.next())
        try toFirst.send([1])
        try toSecond.send([2])
        var firstFrames = atFirst.frames.makeAsyncIterator()
        var secondFrames = atSecond.frames.makeAsyncIterator()
        #expect(try await firstFrames.next() == [1])
        #expect(try await secondFrames.next() == [2])
        toFirst.close(reason: "test done")
        toSecond.close(reason: "test done")
    }

    @Test func anAddressNobodyServesIsClosedAndAClosedListenerStopsServing() async throws {
        let port = try LoopbackPortListener(port: 0)
        defer { port.close() }
        let served = try CastListener(on: port, address: "127.0.0.2", tls: TestIdentity.server.serverConfiguration)
        let unserved = try SocketAddress(ipAddress: "127.0.0.9", port: port.port)
        await #expect(throws: (any Error).self) { _ = try await CastConnection.connect(to: unserved) }

        let before = try await CastConnection.connect(to: served.localAddress)
        before.close(reason: "test done")
        await served.closeAndWait()
        await #expect(throws: (any Error).self) {
            _ = try await CastConnection.connect(to: try SocketAddress(ipAddress: "127.0.0.2", port: port.port))
        }
        // The address can be served again once its listener is gone.
        let again = try CastListener(on: port, address: "127.0.0.2", tls: TestIdentity.other.serverConfiguration)
        defer { again.close() }
        let after = try await CastConnection.connect(to: again.localAddress)
        #expect(after.peerCertificate == TestIdentity.other.certificate)
        after.close(reason: "test done")
    }

    @Test func anAddressCanBeServedOnlyOncePerPort() throws {
        let port = try LoopbackPortListener(port: 0)
        defer { port.close() }
        let listener = try CastListener(on: port, address: "127.0.0.2", tls: TestIdentity.server.serverConfiguration)
        defer { listener.close() }
        #expect {
            _ = try CastListener(on: port, address: "127.0.0.2", tls: TestIdentity.other.serverConfiguration)
        } throws: { error in
            (error as? TCPError)?.code == .addressInUse
        }
        #expect {
            _ = try CastListener(on: port, address: "not an address", tls: TestIdentity.other.serverConfiguration)
        } throws: { error in
            (error as? TCPError)?.code == .invalidAddress
        }
    }

    @Test func httpServersShareThePortToo() async throws {
        let port = try LoopbackPortListener(port: 0)
        defer { port.close() }
        var servers: [HTTPServer] = []
        for address in ["127.0.0.2", "127.0.0.3"] {
            var routes = HTTPRoutes()
            routes.add(.get, "/who") { _ in .ok(.text(address), contentType: "text/plain") }
            servers.append(try HTTPServer(on: port, address: address, routes: routes))
        }
        defer { for server in servers { server.close() } }
        for address in ["127.0.0.3", "127.0.0.2"] {
            let response = try await HTTPClient().get("http://\(address):\(port.port)/who")
            #expect(response.status.code == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == address)
        }
    }
}
