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

    // MARK: What the session knows of the receiver

    static func app(_ sessionID: String, appID: String = "CC1AD845", text: String? = nil) -> ReceiverApplication {
        ReceiverApplication(appID: appID, sessionID: sessionID, statusText: text, transportID: "transport-\(sessionID)")
    }

    @Test func aReceiverStatusReportsOnlyWhatChangedAndNoticesTheAppGone() {
        var machine = machine()
        _ = machine.startRequested()
        machine.applicationAttached(Self.app("S-1", text: "Ready"))
        _ = machine.startSucceeded()
        let volume = DeviceVolume(level: 0.4, muted: false, stepInterval: 0.05)
        let first = machine.receiverStatusReceived(
            ReceiverStatus(applications: [Self.app("S-1", text: "Casting")], volume: volume),
            receiverApplicationID: "CC1AD845"
        )
        #expect(first.volume == volume)
        #expect(first.statusText == .some("Casting"))
        #expect(!first.applicationStopped)
        #expect(machine.application?.statusText == "Casting")
        #expect(machine.isApplicationTransport("transport-S-1"))
        #expect(!machine.isApplicationTransport("transport-S-9"))

        // The same status again changes nothing.
        let again = machine.receiverStatusReceived(
            ReceiverStatus(applications: [Self.app("S-1", text: "Casting")], volume: volume),
            receiverApplicationID: "CC1AD845"
        )
        #expect(again.volume == nil)
        #expect(again.statusText == nil)

        // Another session of the same app is not ours: the app was stopped and replaced.
        let replaced = machine.receiverStatusReceived(
            ReceiverStatus(applications: [Self.app("S-2", text: "Other")], volume: volume),
            receiverApplicationID: "CC1AD845"
        )
        #expect(replaced.applicationStopped)
        #expect(replaced.statusText == .some("Other"), "the text of an app with the options' id")
    }

    @Test func aStatusBeforeTheSessionConnectsNeverStopsIt() {
        var machine = SessionStateMachine(applicationSessionID: "S-7")
        _ = machine.resumeRequested()
        let change = machine.receiverStatusReceived(ReceiverStatus(applications: []), receiverApplicationID: "CC1AD845")
        #expect(!change.applicationStopped)
        #expect(machine.applicationSessionID == "S-7")
    }

    @Test func onlyTheNewestVolumeChangeInFlightStaysPending() {
        var machine = machine()
        let first = machine.volumeChangeRequested(level: 0.2)
        let second = machine.volumeChangeRequested(level: 0.3)
        #expect(machine.pendingVolume?.level == 0.3)
        machine.volumeChangeSettled(first)
        #expect(machine.pendingVolume?.level == 0.3, "an older answer does not clear a newer change")
        machine.volumeChangeSettled(second)
        #expect(machine.pendingVolume == nil)
    }

    @Test func aLostConnectionKeepsItsErrorAcrossTheResume() {
        var machine = machine()
        _ = machine.startRequested()
        _ = machine.startSucceeded()
        let error = CastError(.disconnected, "the device did not answer heartbeats for 10 seconds")
        _ = machine.connectionLost(.networkError, error: error)
        #expect(machine.lastLossError == error)
        _ = machine.reconnectDue()
        _ = machine.resumeSucceeded()
        #expect(machine.lastLossError == error)
    }
}
