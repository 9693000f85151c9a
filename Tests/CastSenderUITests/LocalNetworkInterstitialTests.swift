import CastSender
import Testing

@testable import CastSenderUI

@Suite struct LocalNetworkInterstitialTests {
    typealias Machine = LocalNetworkInterstitialStateMachine

    @Test func defaultPolicyPresentsOnFirstTapAndStartsAfterAccepting() {
        var machine = Machine(policy: DiscoveryStartPolicy(), accepted: false)
        #expect(machine.launched() == .none)
        let result1 = machine.castButtonTapped()
        #expect(result1 == .present)
        #expect(machine.presented)
        let result2 = machine.accept()
        #expect(result2 == .startDiscovery)
        #expect(!machine.presented)
        let result3 = machine.castButtonTapped()
        #expect(result3 == .startDiscovery)
    }

    @Test func declineAsksAgainOnTheNextTap() {
        var machine = Machine(policy: DiscoveryStartPolicy(), accepted: false)
        let result4 = machine.castButtonTapped()
        #expect(result4 == .present)
        machine.decline()
        #expect(!machine.presented && !machine.accepted)
        let result5 = machine.castButtonTapped()
        #expect(result5 == .present)
    }

    @Test func acceptedInAnEarlierLaunchStartsAtLaunch() {
        let machine = Machine(policy: DiscoveryStartPolicy(), accepted: true)
        #expect(machine.launched() == .startDiscovery)
    }

    @Test(arguments: [
        DiscoveryStartPolicy(disableDiscoveryAutostart: false, startDiscoveryAfterFirstTapOnCastButton: false),
        DiscoveryStartPolicy(disableDiscoveryAutostart: true, startDiscoveryAfterFirstTapOnCastButton: true),
        DiscoveryStartPolicy(disableDiscoveryAutostart: true, startDiscoveryAfterFirstTapOnCastButton: false),
    ])
    func buttonDoesNothingUnlessDiscoveryWaitsForIt(policy: DiscoveryStartPolicy) {
        var machine = Machine(policy: policy, accepted: false)
        #expect(machine.launched() == .none)
        let result6 = machine.castButtonTapped()
        #expect(result6 == .none)
        #expect(!machine.presented)
        #expect(Machine(policy: policy, accepted: true).launched() == .none)
    }

    @Test func customPickerStartsDiscoveryItselfAfterTheInterstitial() {
        var machine = Machine(policy: DiscoveryStartPolicy(disableDiscoveryAutostart: true), accepted: false)
        let result7 = machine.customPickerWillScan()
        #expect(result7 == .present)
        let result8 = machine.accept()
        #expect(result8 == .startDiscovery)
        let result9 = machine.customPickerWillScan()
        #expect(result9 == .startDiscovery)
    }

    @Test func acceptingWithoutARequestStartsNothing() {
        var machine = Machine(policy: DiscoveryStartPolicy(), accepted: false)
        let result10 = machine.accept()
        #expect(result10 == .none)
        #expect(machine.accepted)
    }

    @Test func policyFollowsTheContextOptions() {
        var options = CastOptions(receiverApplicationID: "CC1AD845")
        #expect(DiscoveryStartPolicy(options).startsOnCastButtonTap)
        options.disableDiscoveryAutostart = true
        #expect(!DiscoveryStartPolicy(options).startsOnCastButtonTap)
    }

    // MARK: Model across launches

    @Test func acceptanceIsRememberedAcrossLaunches() async {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let discovery = FakeDiscovery()

        // First launch: nothing scans until the interstitial is accepted.
        let first = LocalNetworkInterstitialModel(
            policy: DiscoveryStartPolicy(),
            discovery: discovery.control,
            store: CastUIStateStore(directory: directory.url)
        )
        #expect(discovery.starts == 0)
        #expect(first.castButtonTapped())
        #expect(first.state.isPresented)
        #expect(discovery.starts == 0)
        first.accept()
        #expect(discovery.starts == 1)
        #expect(first.state == .init(isAccepted: true, isPresented: false, content: .standard, discoveryError: nil))

        // Second launch: remembered; discovery starts at once and taps never present it.
        let second = LocalNetworkInterstitialModel(
            policy: DiscoveryStartPolicy(),
            discovery: discovery.control,
            store: CastUIStateStore(directory: directory.url)
        )
        #expect(discovery.starts == 2)
        #expect(second.state.isAccepted)
        #expect(!second.castButtonTapped())
        #expect(!second.state.isPresented)
    }

    @Test func declinedIsNotRemembered() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let discovery = FakeDiscovery()
        let first = LocalNetworkInterstitialModel(
            policy: DiscoveryStartPolicy(),
            discovery: discovery.control,
            store: CastUIStateStore(directory: directory.url)
        )
        #expect(first.castButtonTapped())
        first.decline()
        let second = LocalNetworkInterstitialModel(
            policy: DiscoveryStartPolicy(),
            discovery: discovery.control,
            store: CastUIStateStore(directory: directory.url)
        )
        #expect(discovery.starts == 0)
        #expect(second.castButtonTapped())
    }

    @Test func discoveryFailureIsReported() {
        let discovery = FakeDiscovery()
        discovery.setFailing(true)
        let model = LocalNetworkInterstitialModel(
            policy: DiscoveryStartPolicy(),
            discovery: discovery.control,
            store: CastUIStateStore()
        )
        #expect(model.requestDiscoveryForCustomPicker())
        model.accept()
        #expect(model.state.discoveryError?.contains("mDNS") == true)
    }
}
