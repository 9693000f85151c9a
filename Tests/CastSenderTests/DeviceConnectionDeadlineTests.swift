import CastNet
import CastSenderTestSupport
import CastSync
import CastTime
import Testing

@testable import CastSender

/// The request timeouts of one ``DeviceConnection``: one deadline timer for every request in
/// flight, on a manual clock.
@Suite struct DeviceConnectionDeadlineTests {
    /// A connection to a scripted device that answers nothing but pings, and whose heartbeat
    /// does not fire within the test.
    static func stalledConnection(clock: ManualCastClock) async throws -> DeviceConnection {
        let device = FakeDevice()
        device.set(stalled: true)
        return try await DeviceConnection.open(
            host: "127.0.0.1",
            port: 8009,
            connector: device,
            clock: clock,
            logger: CastLogger(),
            heartbeatInterval: .seconds(3_600),
            heartbeatTimeout: .seconds(7_200),
            requestTimeout: .seconds(10)
        ) { _ in }
    }

    /// A deterministic shuffle (SplitMix64), so a failure replays.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func aThousandRequestsTimeOutInDeadlineOrderOnOneTimer() async throws {
        let clock = ManualCastClock()
        let connection = try await Self.stalledConnection(clock: clock)
        let heartbeatTimers = clock.scheduledTimerCount
        var generator = SeededGenerator(state: 19)
        // Timeouts 1 ms ... 1000 ms, sent in a shuffled order.
        let timeouts = (1...1_000).shuffled(using: &generator)
        let finished = Locked<[(timeout: Int, code: CastError.Code?)]>([])
        for timeout in timeouts {
            connection.sendRequest(
                name: "GET_STATUS \(timeout)",
                namespace: .media,
                from: DeviceConnection.platformSenderID,
                to: "transport-1",
                timeout: .milliseconds(timeout),
                build: { GetMediaStatusRequest(requestID: $0) },
                completion: { result in
                    let code: CastError.Code? =
                        switch result {
                        case .success: nil
                        case .failure(let error): error.code
                        }
                    finished.withLock { $0.append((timeout, code)) }
                }
            )
        }
        #expect(connection.pendingRequestCount == 1_000)
        // One timer for all of them, beside the heartbeat's.
        #expect(clock.scheduledTimerCount == heartbeatTimers + 1)

        // Up to the 400th deadline, exactly the 400 earliest time out.
        clock.advance(by: .milliseconds(400))
        #expect(finished.withLock { $0.map(\.timeout) } == Array(1...400))
        #expect(connection.pendingRequestCount == 600)
        #expect(clock.scheduledTimerCount == heartbeatTimers + 1)

        // Far past every deadline: the rest, still each at its own deadline, in order.
        clock.advance(by: .seconds(5))
        let all = finished.withLock { $0 }
        #expect(all.map(\.timeout) == Array(1...1_000))
        #expect(all.allSatisfy { $0.code == .timeout })
        #expect(connection.pendingRequestCount == 0)
        #expect(clock.scheduledTimerCount == heartbeatTimers)
        connection.close()
    }

    /// Settling the request with the earliest deadline moves the one timer to the next
    /// deadline; cancelling the rest disarms it.
    @Test func theTimerFollowsTheEarliestDeadlineAsRequestsEnd() async throws {
        let clock = ManualCastClock()
        let connection = try await Self.stalledConnection(clock: clock)
        let heartbeatTimers = clock.scheduledTimerCount
        let finished = Locked<[String]>([])
        func send(_ name: String, after timeout: Duration) -> Int {
            connection.sendRequest(
                name: name,
                namespace: .media,
                from: DeviceConnection.platformSenderID,
                to: "transport-1",
                timeout: timeout,
                build: { GetMediaStatusRequest(requestID: $0) },
                completion: { result in
                    let outcome = (try? result.get()) == nil ? "failed" : "answered"
                    finished.withLock { $0.append("\(name) \(outcome)") }
                }
            )
        }
        let early = send("early", after: .seconds(1))
        _ = send("middle", after: .seconds(2))
        let late = send("late", after: .seconds(3))
        connection.cancelRequest(early)
        #expect(clock.scheduledTimerCount == heartbeatTimers + 1)
        clock.advance(by: .milliseconds(1_500))
        #expect(finished.withLock { $0 } == ["early failed"])
        clock.advance(by: .milliseconds(500))
        #expect(finished.withLock { $0 } == ["early failed", "middle failed"])
        connection.cancelRequest(late)
        #expect(clock.scheduledTimerCount == heartbeatTimers)
        #expect(connection.pendingRequestCount == 0)
        connection.close()
    }
}
