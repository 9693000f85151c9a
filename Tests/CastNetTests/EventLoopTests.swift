import CastNet
import Testing

@Suite struct EventLoopTests {
    @Test func groupHandsOutLoopsRoundRobin() {
        let group = EventLoopGroup(loopCount: 3)
        let picked = (0..<6).map { _ in group.next() }
        #expect(picked[0] === picked[3])
        #expect(picked[1] === picked[4])
        #expect(picked[0] !== picked[1])
        #expect(picked[1] !== picked[2])
    }

    /// Short-lived connections reuse descriptor numbers constantly; every one must still
    /// see its events (a lost registration would leave an exchange waiting forever).
    @Test func churnOfShortConnectionsWithReusedDescriptorsAllComplete() async throws {
        let group = EventLoopGroup(loopCount: 2)
        let listener = try TCPListener(address: .loopbackIPv4(), group: group)
        defer { listener.close() }
        let server = Task {
            await withDiscardingTaskGroup { tasks in
                for await connection in listener.connections {
                    tasks.addTask {
                        while let bytes = try? await connection.receive() {
                            _ = try? await connection.send(bytes)
                        }
                        connection.close()
                    }
                }
            }
        }
        let address = listener.localAddress
        let completed = try await withThrowingTaskGroup(of: Int.self) { tasks in
            // A deadline turns a lost event into a failure instead of a hang.
            tasks.addTask {
                try await Task.sleep(for: .seconds(60))
                return -1
            }
            tasks.addTask {
                try await withThrowingTaskGroup(of: Void.self) { exchanges in
                    for round in 0..<20 {
                        for index in 0..<20 {
                            exchanges.addTask {
                                let client = try await TCPConnection.connect(to: address, group: group)
                                let byte = UInt8(truncatingIfNeeded: round * 20 + index)
                                try await client.send([byte])
                                let echoed = try await client.receive()
                                client.close()
                                guard echoed == [byte] else { throw TestFailure("wrong echo") }
                            }
                        }
                        try await exchanges.waitForAll()
                    }
                }
                return 400
            }
            let first = try await tasks.next()!
            tasks.cancelAll()
            return first
        }
        #expect(completed == 400)
        listener.close()
        server.cancel()
    }
}
