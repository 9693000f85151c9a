import CastSender
import CastSenderTestSupport
import Testing

@testable import CastSenderUI

@Suite struct IntroductoryOverlayTests {
    @Test(arguments: [CastState.notConnected, .connecting, .connected])
    func machinePresentsOnceWhenStateLeavesNoDevices(state: CastState) {
        var machine = IntroductoryOverlayStateMachine(shown: false)
        let result1 = machine.castStateChanged(.noDevicesAvailable)
        #expect(!result1)
        let result2 = machine.castStateChanged(state)
        #expect(result2)
        #expect(machine.presented && machine.shown)
        machine.dismiss()
        let result3 = machine.castStateChanged(.notConnected)
        #expect(!result3)
        #expect(!machine.presented)
    }

    @Test func clearingTheFlagShowsItAgain() {
        var machine = IntroductoryOverlayStateMachine(shown: true)
        let result4 = machine.castStateChanged(.notConnected)
        #expect(!result4)
        machine.clearShownFlag()
        let result5 = machine.castStateChanged(.notConnected)
        #expect(result5)
    }

    @Test func shownOnceAcrossLaunches() async {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (states, continuation) = AsyncStream<CastState>.makeStream()
        let first = IntroductoryOverlayModel(
            castStates: states,
            currentCastState: { .noDevicesAvailable },
            store: CastUIStateStore(directory: directory.url)
        )
        #expect(first.state.overlay == nil)
        continuation.yield(.notConnected)
        #expect(await Harness.waitUntil { first.state.overlay != nil })
        #expect(first.state.overlay?.highlight == .castButton)
        first.dismiss()
        #expect(first.state == .init(overlay: nil, wasShown: true))
        continuation.finish()

        // A new launch with devices available at once: not shown again.
        let second = IntroductoryOverlayModel(
            castStates: AsyncStream { $0.finish() },
            currentCastState: { .notConnected },
            store: CastUIStateStore(directory: directory.url)
        )
        #expect(second.state == .init(overlay: nil, wasShown: true))
        #expect(!second.presentOnce())

        second.clearInstructionsShownFlag()
        let third = IntroductoryOverlayModel(
            castStates: AsyncStream { $0.finish() },
            currentCastState: { .connected },
            store: CastUIStateStore(directory: directory.url)
        )
        #expect(third.state.overlay == .standard)
    }

    @Test func followsTheContextCastState() async throws {
        let harness = Harness()
        let context = harness.context()
        let overlay = IntroductoryOverlayModel(context: context, store: CastUIStateStore())
        #expect(overlay.state.overlay == nil)
        _ = try await context.sessionManager.startSession(with: harness.deviceInfo, host: nil, port: nil)
        #expect(await harness.waitUntil { overlay.state.overlay != nil })
        await context.sessionManager.endSession()
    }
}
