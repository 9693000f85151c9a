import CastCore
import CastSender
import CastSenderTestSupport
import CastSync
import Testing

@testable import CastSenderUI

@Suite struct CastButtonTests {
    @Test(arguments: [
        (CastState.noDevicesAvailable, CastButtonState.unavailable), (.notConnected, .available),
        (.connecting, .connecting), (.connected, .connected), (CastState(rawValue: 42), .unavailable),
    ])
    func buttonStateFollowsCastState(castState: CastState, expected: CastButtonState) {
        #expect(CastButtonState(castState) == expected)
    }

    @Test func machineTapsAndLabels() {
        var machine = CastButtonStateMachine(castState: .noDevicesAvailable)
        #expect(machine.tapped(connectedDialog: nil, needsInterstitial: true) == .presentLocalNetworkInterstitial)
        #expect(machine.tapped(connectedDialog: nil, needsInterstitial: false) == .presentDeviceChooser)
        let changed = machine.castStateChanged(.connected)
        #expect(changed)
        let unchanged = machine.castStateChanged(.connected)
        #expect(!unchanged)
        let dialog = StopCastingDialog(deviceName: "TV")
        #expect(machine.tapped(connectedDialog: dialog, needsInterstitial: true) == .presentStopCastingDialog(dialog))
        #expect(machine.accessibilityLabel(for: .connected) == "Cast. Connected")
        machine.setAccessibilityLabel("Casting to the TV", for: .connected)
        #expect(machine.accessibilityLabel(for: .connected) == "Casting to the TV")
        #expect(machine.accessibilityLabel(for: .available) == "Cast. Not connected")
        machine.setAccessibilityLabel(nil, for: .connected)
        #expect(machine.accessibilityLabel(for: .connected) == "Cast. Connected")
    }

    @Test func everyStateHasItsOwnDefaultLabel() {
        #expect(Set(CastButtonState.allCases.map(\.defaultAccessibilityLabel)).count == 4)
    }

    @Test(arguments: [
        (
            StopCastingDialog(deviceName: "TV", mediaTitle: "Big Buck Bunny", mediaSubtitle: "Blender"),
            "Big Buck Bunny — Blender"
        ),
        (StopCastingDialog(deviceName: "TV", mediaTitle: "Sintel"), "Sintel"),
        (StopCastingDialog(deviceName: "TV"), "No media selected"),
    ])
    func dialogNowPlayingLine(dialog: StopCastingDialog, line: String) {
        #expect(dialog.nowPlaying == line)
        #expect(dialog.stopButtonTitle == "Stop casting")
    }

    @Test func followsASessionAndOffersToStopCasting() async throws {
        let harness = Harness()
        let context = harness.context()
        let button = CastButtonModel(context: context)
        var updates = button.updates().makeAsyncIterator()
        #expect(
            button.state
                == .init(buttonState: .unavailable, isVisible: true, accessibilityLabel: "Cast. No devices available")
        )
        #expect(button.tap() == .presentDeviceChooser)

        let session = try await context.sessionManager.startSession(with: harness.deviceInfo, host: nil, port: nil)
        var seen: [CastButtonState] = []
        while seen.last != .connected, let state = await updates.next() {
            #expect(state.isVisible)
            seen.append(state.buttonState)
        }
        #expect(seen == [.connecting, .connected])
        #expect(button.state.accessibilityLabel == "Cast. Connected")

        var metadata = MediaMetadata(metadataType: .movie)
        metadata.title = "Big Buck Bunny"
        metadata.studio = "Blender Foundation"
        try await session.remoteMediaClient.load(
            LoadRequestData(media: MediaInformation(contentID: "bbb.mp4", metadata: metadata))
        ).result
        let action = button.tap()
        #expect(
            action
                == .presentStopCastingDialog(
                    StopCastingDialog(
                        deviceName: "Living Room TV",
                        mediaTitle: "Big Buck Bunny",
                        mediaSubtitle: "Blender Foundation",
                        deviceVolume: DeviceVolumeState(
                            level: 0.5,
                            isMuted: false,
                            stepInterval: 0.05,
                            isFixedVolume: false,
                            inputEnabled: true,
                            deviceName: "Living Room TV"
                        )
                    )
                )
        )
        await button.stopCasting(stopReceiverApplication: true)
        #expect(await harness.waitUntil { button.state.buttonState == .unavailable })
        #expect(harness.device.received(type: "STOP", namespace: .receiver).count == 1)
    }

    @Test func firstTapGoesThroughTheInterstitial() {
        let discovery = FakeDiscovery()
        let interstitial = LocalNetworkInterstitialModel(
            policy: DiscoveryStartPolicy(),
            discovery: discovery.control,
            store: CastUIStateStore()
        )
        let button = CastButtonModel(
            castStates: AsyncStream { $0.finish() },
            currentCastState: { .noDevicesAvailable },
            interstitial: interstitial,
            currentDialog: { nil },
            endSession: { _ in }
        )
        #expect(button.tap() == .presentLocalNetworkInterstitial)
        #expect(discovery.starts == 0)
        interstitial.accept()
        #expect(discovery.starts == 1)
        #expect(button.tap() == .presentDeviceChooser)
    }

    @Test func customLabelIsPublished() async {
        let button = CastButtonModel(
            castStates: AsyncStream { $0.finish() },
            currentCastState: { .notConnected },
            interstitial: nil,
            currentDialog: { nil },
            endSession: { _ in }
        )
        var updates = button.updates().makeAsyncIterator()
        button.setAccessibilityLabel("Cast to a TV", for: .available)
        #expect(await updates.next()?.accessibilityLabel == "Cast to a TV")
    }

    @Test func withoutAnInterstitialTapsReachTheDiscoveryManager() {
        let taps = Locked(0)
        let button = CastButtonModel(
            castStates: AsyncStream { $0.finish() },
            currentCastState: { .noDevicesAvailable },
            interstitial: nil,
            tapped: { taps.withLock { $0 += 1 } },
            currentDialog: { nil },
            endSession: { _ in }
        )
        #expect(button.tap() == .presentDeviceChooser)
        #expect(button.tap() == .presentDeviceChooser)
        #expect(taps.withLock { $0 } == 2)
    }
}
