import CastCore
import CastNet
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender
@testable import CastSenderUI

/// Every widget model driven against the in-process virtual device over TLS: what the
/// widget shows comes from the device's statuses, and what it does is checked on the
/// device's own engine.
@Suite struct WidgetsOnTheVirtualDeviceTests {
    /// An 8×4 PNG: red on the left half, blue on the right.
    static let poster: [UInt8] = {
        var image = PNGImage(width: 8, height: 4, fill: (255, 0, 0, 255))
        for y in 0..<4 { for x in 4..<8 { image.setPixel(x: x, y: y, to: (0, 0, 255, 255)) } }
        return image.pngData()
    }()

    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("widgets-\(UUID().uuidString)")
    }

    // MARK: Cast button

    @Test func castButtonFollowsTheSessionAndItsDialogStopsTheApp() async throws {
        let rig = try await VirtualDeviceRig.start { $0.volume = Volume(level: 0.4, muted: false) }
        let context = rig.context()
        let button = CastButtonModel(context: context)
        #expect(button.state.buttonState == .unavailable)
        let device = try await context.discoveryManager.addDevice(host: "127.0.0.1", port: rig.ports.cast)
        #expect(await rig.eventually { button.state.buttonState == .available })
        #expect(button.tap() == .presentDeviceChooser)

        _ = try await context.sessionManager.startSession(with: device)
        #expect(await rig.eventually { button.state.buttonState == .connected })
        guard case .presentStopCastingDialog(let dialog) = button.tap() else {
            Issue.record("a tap while casting opens the stop-casting dialog")
            return
        }
        #expect(dialog.deviceName == device.friendlyName)
        #expect(dialog.deviceVolume?.percent == 40, "the dialog's volume comes from the device")
        await button.stopCasting(stopReceiverApplication: true)
        #expect(await rig.eventually { button.state.buttonState == .available })
        #expect(rig.engine?.runningApplication?.appID != DiscoveryCriteria.defaultMediaReceiverApplicationID)
    }

    // MARK: Device chooser

    @Test func chooserListsTheDeviceAndSelectingItStartsASession() async throws {
        let rig = try await VirtualDeviceRig.start()
        let context = rig.context()
        let chooser = DeviceChooserModel(context: context, searchTimeout: .seconds(3600))
        let device = try await context.discoveryManager.addDevice(
            host: "127.0.0.1",
            port: rig.ports.cast,
            friendlyName: "Widget TV"
        )
        #expect(await rig.eventually { chooser.state.devices.map(\.name) == ["Widget TV"] })
        #expect(chooser.state.phase == .devices)
        try await chooser.select(device.id)
        #expect(context.sessionManager.hasConnectedSession)
        #expect(chooser.state.connectingDeviceID == nil)
        #expect(chooser.state.errorMessage == nil)
        #expect(rig.engine?.runningApplication?.appID == DiscoveryCriteria.defaultMediaReceiverApplicationID)
    }

    // MARK: Device volume

    @Test func volumeControllerStepsMutesAndFollowsTheDevice() async throws {
        let rig = try await VirtualDeviceRig.start { configuration in
            configuration.volume = Volume(level: 0.5, muted: false)
            configuration.volumeStepInterval = 0.1
        }
        let context = rig.context()
        let volume = DeviceVolumeController(context: context)
        #expect(!volume.state.inputEnabled, "no session: nothing to control")
        #expect(volume.volumeUp() == nil)
        _ = try await context.sessionManager.startSession(with: rig.target)
        #expect(await rig.eventually { volume.state.inputEnabled })
        #expect(volume.state.percent == 50)
        #expect(volume.state.stepInterval == 0.1)

        try await #require(volume.volumeUp()).result
        #expect(await rig.eventually { rig.engine?.deviceVolume.level == 0.6 })
        #expect(await rig.eventually { volume.state.percent == 60 })
        try await #require(volume.volumeDown()).result
        try await #require(volume.volumeDown()).result
        #expect(await rig.eventually { rig.engine?.deviceVolume.level == 0.4 })
        try await #require(volume.setVolume(0.25)).result
        #expect(await rig.eventually { rig.engine?.deviceVolume.level == 0.25 })
        try await #require(volume.toggleMuted()).result
        #expect(await rig.eventually { rig.engine?.deviceVolume.muted == true && volume.state.isMuted })
    }

    @Test func volumeControllerIsDisabledForAFixedVolumeDevice() async throws {
        let rig = try await VirtualDeviceRig.start { $0.volumeControlType = .fixed }
        let context = rig.context()
        let volume = DeviceVolumeController(context: context)
        _ = try await context.sessionManager.startSession(with: rig.target)
        #expect(await rig.eventually { volume.state.isFixedVolume })
        #expect(!volume.state.inputEnabled)
        #expect(volume.volumeUp() == nil)
        #expect(volume.setVolume(0.1) == nil)
        #expect(volume.toggleMuted() == nil)
    }

    // MARK: Mini and expanded controllers, queue, repeat

    @Test func miniAndExpandedControllersShowAndDriveTheDevice() async throws {
        let server = try ArtworkServer(["/poster.png": Self.poster])
        let cacheDirectory = Self.directory()
        defer { try? FileManager.default.removeItem(at: cacheDirectory) }
        let rig = try await VirtualDeviceRig.start()
        let context = rig.context()
        context.imageCache = DiskImageCache(directory: cacheDirectory)
        context.imagePicker = BestFitImagePicker()
        let container = CastContainerModel(context: context)
        let mini = container.miniController
        let expanded = container.expandedController
        let session = try await context.sessionManager.startSession(with: rig.target)

        let media = VirtualDeviceRig.media(imageURL: server.url("/poster.png"))
        let items = [QueueItem(media: media, autoplay: true), QueueItem(media: media, autoplay: true)]
        try await session.remoteMediaClient.queueLoad(items).result
        #expect(await rig.eventually { mini.state.isVisible && mini.state.title == "Big Buck Bunny" })
        #expect(mini.state.subtitle == "Blender Foundation")
        #expect(mini.state.thumbnailURL == server.url("/poster.png"))

        // The artwork comes through the context's cache and decodes to the served picture.
        #expect(await rig.eventually { expanded.state.artwork?.image != nil && mini.state.thumbnail?.image != nil })
        let picture = try #require(expanded.state.artwork?.image)
        #expect(picture.width == 8 && picture.height == 4)
        #expect(picture.pixel(x: 0, y: 0) == (255, 0, 0, 255))
        #expect(picture.pixel(x: 7, y: 3) == (0, 0, 255, 255))
        #expect(server.hits("/poster.png") == 1, "one download, shared by both controllers")

        // Play/pause from the mini controller reaches the device.
        #expect(await rig.eventually { mini.state.playPause.action == .pause })
        #expect(mini.togglePlayPause())
        #expect(await rig.eventually { rig.media?.playerState == .paused })
        #expect(await rig.eventually { expanded.state.playPause.action == .play })

        // Selecting the mini controller presents the expanded one and hides the mini.
        #expect(mini.select())
        #expect(await rig.eventually { container.state.isExpandedControllerPresented })
        #expect(!container.state.showsMiniController)

        // The expanded controller's queue and repeat controls.
        #expect(await rig.eventually { expanded.state.queue.canSkipToNext })
        #expect(!expanded.state.queue.canSkipToPrevious)
        let firstItem = try #require(rig.media?.currentItemID)
        try await #require(expanded.mediaController.skipToNext()).result
        #expect(await rig.eventually { rig.media?.currentItemID != firstItem })
        #expect(await rig.eventually { expanded.state.queue.canSkipToPrevious })
        #expect(expanded.state.queue.repeatMode == .off)
        try await #require(expanded.mediaController.cycleRepeatMode()).result
        #expect(await rig.eventually { rig.media?.repeatMode == .all && expanded.state.queue.repeatMode == .all })
        try await #require(expanded.mediaController.cycleRepeatMode()).result
        #expect(await rig.eventually { rig.media?.repeatMode == .single })
        try await #require(expanded.mediaController.skipToPrevious()).result
        #expect(await rig.eventually { rig.media?.currentItemID == firstItem })

        // ±30 s and the device volume shown with the controls.
        try await #require(expanded.mediaController.skipForward()).result
        #expect(await rig.eventually { (rig.media?.currentTime ?? 0) >= 30 })
        #expect(expanded.state.deviceVolume?.inputEnabled == true)

        // The stream mute binding.
        #expect(await rig.eventually { expanded.state.streamVolume?.canMute == true })
        try await #require(expanded.mediaController.toggleStreamMuted()).result
        #expect(
            await rig.eventually { rig.media?.volume?.muted == true && expanded.state.streamVolume?.isMuted == true }
        )
    }

    @Test func theContextPresentsTheExpandedControlsAfterALoadWhenAsked() async throws {
        let rig = try await VirtualDeviceRig.start()
        let context = rig.context()
        let triggers = context.expandedMediaControlsTriggers()
        let container = CastContainerModel(context: context)
        let session = try await context.sessionManager.startSession(with: rig.target)

        // Not asked: the trigger is announced, nothing is presented.
        try await session.remoteMediaClient.load(LoadRequestData(media: VirtualDeviceRig.media())).result
        #expect(await firstEvent(in: triggers, timeout: TestTiming.patience) { true } != nil)
        await rig.drain()
        #expect(!container.state.isExpandedControllerPresented)

        context.useDefaultExpandedMediaControls = true
        context.presentDefaultExpandedMediaControls()
        #expect(await rig.eventually { container.state.isExpandedControllerPresented })
        container.dismissExpandedController()
        #expect(!container.state.isExpandedControllerPresented)
        // A LOAD that fails presents nothing; one that succeeds does.
        let refused = session.remoteMediaClient.load(LoadRequestData())
        #expect(refused.error?.code == .invalidRequest)
        await rig.drain()
        #expect(!container.state.isExpandedControllerPresented)
        try await session.remoteMediaClient.queueLoad([QueueItem(media: VirtualDeviceRig.media())]).result
        #expect(await rig.eventually { container.state.isExpandedControllerPresented })
        #expect(!container.state.showsMiniController)
    }

    // MARK: Rate and tracks

    @Test func rateControllerAndTrackSelectorChangeTheDevice() async throws {
        let rig = try await VirtualDeviceRig.start()
        let context = rig.context()
        let media = MediaController(context: context)
        let tracks = TrackSelectionModel(mediaController: media)
        let session = try await context.sessionManager.startSession(with: rig.target)
        try await session.remoteMediaClient.load(LoadRequestData(media: VirtualDeviceRig.media())).result
        #expect(await rig.eventually { media.state.playbackRate.inputEnabled && tracks.state.inputEnabled })

        try await #require(media.setPlaybackRate(.double)).result
        #expect(await rig.eventually { rig.media?.playbackRate == 2 && media.state.playbackRate.segment == .double })
        try await #require(media.setPlaybackRate(.half)).result
        #expect(await rig.eventually { rig.media?.playbackRate == 0.5 })

        #expect(tracks.state.textTracks.map(\.title) == ["English", "Français"])
        #expect(tracks.state.audioTracks.map(\.title) == ["Stereo", "Commentary"])
        try await #require(tracks.selectTextTrack(2)).result
        #expect(await rig.eventually { rig.media?.activeTrackIDs == [2] && tracks.state.selectedTextTrackID == 2 })
        try await #require(tracks.selectAudioTrack(4)).result
        #expect(await rig.eventually { rig.media?.activeTrackIDs == [2, 4] && tracks.state.selectedAudioTrackID == 4 })
        try await #require(tracks.selectTextTrack(1)).result
        #expect(
            await rig.eventually { rig.media?.activeTrackIDs == [1, 4] && tracks.state.selectedTextTrackID == 1 },
            "one text track at a time"
        )
        try await #require(tracks.setTextTrackStyle(.highContrast)).result
        #expect(
            await rig.eventually {
                rig.media?.media?.textTrackStyle?.foregroundColor
                    == TextTrackStylePreset.highContrast.style.foregroundColor
            }
        )
        #expect(await rig.eventually { tracks.state.selectedStylePresetID == "high-contrast" })
        try await #require(tracks.selectTextTrack(nil)).result
        #expect(await rig.eventually { rig.media?.activeTrackIDs == [4] && tracks.state.selectedTextTrackID == nil })
        #expect(tracks.selectAudioTrack(1) == nil, "track 1 is a text track")
    }

    // MARK: Ad skip

    @Test func skipAdFromTheMediaControllerEndsTheBreakOnTheDevice() async throws {
        let rig = try await VirtualDeviceRig.start()
        let context = rig.context()
        let media = MediaController(context: context)
        let session = try await context.sessionManager.startSession(with: rig.target)
        try await session.remoteMediaClient.load(LoadRequestData(media: VirtualDeviceRig.media(adBreak: true))).result
        #expect(await rig.eventually { rig.media?.breakStatus?.breakClipID == "clip-1" })
        #expect(await rig.eventually { media.state.adBreak?.canSkip == true })
        #expect(media.state.adBreak?.clipTitle == "A word from our sponsor")
        #expect(!media.state.seekBar.isSeekable, "no seeking during an ad")
        try await #require(media.skipAd()).result
        #expect(await rig.eventually { rig.media?.breakStatus == nil && media.state.adBreak == nil })
        #expect(rig.media?.media?.breaks?.first?.isWatched == true)
    }
}
