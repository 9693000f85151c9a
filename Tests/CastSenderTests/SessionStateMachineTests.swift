import Testing

@testable import CastSender

@Suite struct SessionStateMachineTests {
    func machine(attempts: Int = 3) -> SessionStateMachine {
        SessionStateMachine(backoff: ReconnectBackoff(jitter: 0, maximumAttempts: attempts), random: { 0.5 })
    }

    @Test func startThenEnd() {
        var machine = machine()
        #expect(machine.startRequested() == [.notify(.willStart), .runStart])
        #expect(machine.startSucceeded() == [.persistSession, .notify(.didStart)])
        #expect(machine.state == .connected)
        #expect(
            machine.endRequested(stopReceiverApp: true) == [
                .notify(.willEnd), .clearPersistedSession, .runEnd(stopReceiverApp: true),
            ]
        )
        #expect(machine.endCompleted() == [.closeConnection, .notify(.didEnd(nil))])
        #expect(machine.state == .ended)
        #expect(machine.startRequested().isEmpty)
    }

    @Test func failedStart() {
        var machine = machine()
        _ = machine.startRequested()
        let error = CastError(.applicationNotFound, "no such app")
        #expect(machine.startFailed(error) == [.closeConnection, .notify(.didFailToStart(error))])
        #expect(machine.state == .ended)
    }

    @Test func lossSuspendsAndResumesWithBackoff() {
        var machine = machine()
        _ = machine.startRequested()
        _ = machine.startSucceeded()
        #expect(
            machine.connectionLost(.networkError) == [
                .closeConnection, .notify(.didSuspend(.networkError)), .scheduleReconnect(after: .milliseconds(500)),
            ]
        )
        #expect(machine.reconnectDue() == [.notify(.willResume), .runResume])
        #expect(
            machine.resumeFailed(CastError(.network, "refused"), retry: true) == [
                .closeConnection, .scheduleReconnect(after: .seconds(1)),
            ]
        )
        #expect(machine.reconnectDue() == [.runResume])
        #expect(machine.resumeSucceeded() == [.persistSession, .notify(.didResume)])
        #expect(machine.state == .connected)
    }

    @Test func resumeGivesUpAfterMaximumAttempts() {
        var machine = machine(attempts: 2)
        _ = machine.startRequested()
        _ = machine.startSucceeded()
        _ = machine.connectionLost(.networkError)
        _ = machine.reconnectDue()
        let error = CastError(.network, "refused")
        _ = machine.resumeFailed(error, retry: true)
        _ = machine.reconnectDue()
        #expect(
            machine.resumeFailed(error, retry: true) == [
                .closeConnection, .clearPersistedSession, .notify(.didFailToResume(error)), .notify(.didEnd(error)),
            ]
        )
        #expect(machine.state == .ended)
    }

    @Test func appGoneEndsResumeAtOnce() {
        var machine = machine()
        #expect(machine.resumeRequested() == [.cancelReconnect, .notify(.willResume), .runResume])
        let error = CastError(.applicationNotRunning, "gone")
        #expect(
            machine.resumeFailed(error, retry: false) == [
                .closeConnection, .clearPersistedSession, .notify(.didFailToResume(error)),
            ]
        )
    }

    @Test func appStoppedByAnotherSenderEndsTheSession() {
        var machine = machine()
        _ = machine.startRequested()
        _ = machine.startSucceeded()
        let error = CastError(.applicationNotRunning, "stopped")
        #expect(
            machine.applicationStopped(error) == [
                .cancelReconnect, .notify(.willEnd), .clearPersistedSession, .closeConnection, .notify(.didEnd(error)),
            ]
        )
        #expect(machine.applicationStopped(error).isEmpty)
    }

    @Test func manualSuspendWaitsForResume() {
        var machine = machine()
        _ = machine.startRequested()
        _ = machine.startSucceeded()
        #expect(
            machine.suspendRequested(.appBackgrounded) == [.closeConnection, .notify(.didSuspend(.appBackgrounded))]
        )
        #expect(machine.reconnectDue().isEmpty)
        #expect(machine.resumeRequested() == [.cancelReconnect, .notify(.willResume), .runResume])
    }

    @Test func endWhileSuspended() {
        var machine = machine()
        _ = machine.startRequested()
        _ = machine.startSucceeded()
        _ = machine.connectionLost(.networkError)
        #expect(
            machine.endRequested(stopReceiverApp: false) == [
                .cancelReconnect, .notify(.willEnd), .clearPersistedSession, .closeConnection, .notify(.didEnd(nil)),
            ]
        )
        #expect(machine.state == .ended)
    }
}
