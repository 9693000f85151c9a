import CastNet
import CastTime
import Testing

@testable import CastSender

@Suite struct HeartbeatStateMachineTests {
    let start = CastInstant(offset: .zero)

    @Test func pingsWhileThePeerAnswers() {
        var machine = HeartbeatStateMachine(now: start)
        for second in stride(from: 5, through: 60, by: 5) {
            let now = start.advanced(by: .seconds(second))
            #expect(machine.tick(now: now) == .sendPing)
            machine.heard(now: now)
        }
    }

    @Test func lostAfterTenSecondsWithoutPong() {
        var machine = HeartbeatStateMachine(now: start)
        #expect(machine.tick(now: start.advanced(by: .seconds(5))) == .sendPing)
        #expect(machine.tick(now: start.advanced(by: .seconds(10))) == .connectionLost(silence: .seconds(10)))
        #expect(machine.tick(now: start.advanced(by: .seconds(15))) == .none)
    }

    @Test func configurableTimings() {
        var machine = HeartbeatStateMachine(interval: .seconds(1), timeout: .seconds(3), now: start)
        machine.heard(now: start.advanced(by: .seconds(1)))
        #expect(machine.tick(now: start.advanced(by: .seconds(3))) == .sendPing)
        #expect(machine.tick(now: start.advanced(by: .seconds(4))) == .connectionLost(silence: .seconds(3)))
    }

    @Test func stoppedMachineDoesNothing() {
        var machine = HeartbeatStateMachine(now: start)
        machine.stop()
        #expect(machine.tick(now: start.advanced(by: .seconds(60))) == .none)
    }
}
