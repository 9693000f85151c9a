import CastNet
import CastTestSupport
import CastTime
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct TCPConnectionTests {
    /// Accepts one connection and echoes what it receives until the peer half-closes.
    private func echoOnce(_ listener: TCPListener) -> Task<Int, any Error> {
        Task {
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
    }

    private func receive(_ count: Int, from connection: TCPConnection) async throws -> [UInt8] {
        var received: [UInt8] = []
        while received.count < count {
            guard let bytes = try await connection.receive() else { break }
            received += bytes
        }
        return received
    }

    @Test(arguments: ["127.0.0.1", "127.0.0.5", "::1"])
    func echoesOverLoopback(host: String) async throws {
        let listener = try TCPListener(address: SocketAddress(ipAddress: host, port: 0))
        defer { listener.close() }
        #expect(listener.localAddress.port != 0)
        #expect(listener.localAddress.ipAddress == host)
        let server = echoOnce(listener)
        let client = try await TCPConnection.connect(to: listener.localAddress)
        #expect(client.remoteAddress == listener.localAddress)
        #expect(client.tlsVersion == nil)
        let message = Array("hello over \(host)".utf8)
        try await client.send(message)
        #expect(try await receive(message.count, from: client) == message)
        client.shutdownOutput()
        #expect(try await client.receive() == nil)
        #expect(try await server.value == message.count)
        client.close()
    }

    @Test func transfersOneMebibyteBothWays() async throws {
        let listener = try TCPListener(address: .loopbackIPv4())
        defer { listener.close() }
        let server = echoOnce(listener)
        let client = try await TCPConnection.connect(to: listener.localAddress)
        let payload = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        async let echoed = receive(payload.count, from: client)
        try await client.send(payload)
        #expect(try await echoed == payload)
        client.shutdownOutput()
        #expect(try await server.value == payload.count)
    }

    @Test func refusedConnectionIsTyped() async throws {
        let refusing = try RefusingPort()
        let address = SocketAddress.loopbackIPv4(port: refusing.port)
        await #expect {
            try await TCPConnection.connect(to: address)
        } throws: { error in
            (error as? TCPError)?.code == .connectionRefused
        }
        withExtendedLifetime(refusing) {}
    }

    @Test func addressInUseIsTyped() throws {
        let listener = try TCPListener(address: .loopbackIPv4())
        defer { listener.close() }
        #expect {
            try TCPListener(address: listener.localAddress)
        } throws: { error in
            (error as? TCPError)?.code == .addressInUse
        }
    }

    @Test func addressNotOnThisMachineIsTyped() throws {
        #expect {
            try TCPListener(address: SocketAddress(ipAddress: "192.0.2.1", port: 0))
        } throws: { error in
            (error as? TCPError)?.code == .addressNotAvailable
        }
    }

    @Test(arguments: ["", "1.2.3", "localhost", "::g", "300.1.1.1"])
    func invalidAddressTextIsRejected(text: String) {
        #expect(throws: TCPError.self) { try SocketAddress(ipAddress: text, port: 80) }
    }

    @Test func portOutOfRangeIsRejected() {
        #expect(throws: TCPError.self) { try SocketAddress(ipAddress: "127.0.0.1", port: 70000) }
    }

    @Test func connectsByHostName() async throws {
        let listener = try TCPListener(address: .loopbackIPv4())
        defer { listener.close() }
        let server = echoOnce(listener)
        let client = try await TCPConnection.connect(host: "localhost", port: listener.localAddress.port)
        try await client.send([1, 2, 3])
        #expect(try await receive(3, from: client) == [1, 2, 3])
        client.shutdownOutput()
        _ = try await server.value
    }

    @Test func connectTimeoutFiresOnTheInjectedClock() async throws {
        // A listening socket that never accepts, with a backlog of 0: once its queue is
        // full the kernel drops further SYNs, so a connection stays pending until the
        // injected clock says it has waited long enough.
        let listenerFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listenerFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listenerFD, pointer, length) == 0 && listen(listenerFD, 0) == 0
                    && getsockname(listenerFD, pointer, &length) == 0
            }
        }
        try #require(bound)
        let target = SocketAddress.loopbackIPv4(port: Int(UInt16(bigEndian: address.sin_port)))
        var fillers: [TCPConnection] = []
        var timedOut = false
        // The first connections fill the queue and complete; a later one stays pending.
        // A connection counts as pending when it has not completed within two seconds.
        for _ in 0..<8 where !timedOut {
            let clock = ManualCastClock()
            let task = Task { try await TCPConnection.connect(to: target, timeout: .seconds(5), clock: clock) }
            await clock.waitForScheduledTimers(count: 1)
            // The kernel completes a connect the backlog has room for at once; one it queues
            // tells nobody: the connect's timer still being there after two seconds says so.
            try? await pollUntil("the connect to complete", within: .seconds(2)) { clock.scheduledTimerCount == 0 }
            if clock.scheduledTimerCount > 0 {
                clock.advance(by: .seconds(4))
                #expect(clock.scheduledTimerCount <= 1)
                clock.advance(by: .seconds(1))
            }
            do {
                fillers.append(try await task.value)
            } catch {
                #expect((error as? TCPError)?.code == .timedOut)
                timedOut = true
            }
        }
        #expect(timedOut)
        for filler in fillers { filler.close() }
    }
}
