import CastCore
import CastSenderTestSupport
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender
@testable import CastSenderUI

/// Every widget model driven against the virtual device's engine, in memory
/// (``InMemoryRig``): what the widget shows comes from the device's statuses, and what it does
/// is checked on the device's own engine. Frames move when the test runs the loop, and a
/// widget's new state is awaited on the model's own `updates()`: nothing is polled, no time
/// passes.
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
        let rig = InMemoryRig.widgets { $0.volume = Volume(level: 0.4, muted: false) }
        let context = rig.context()
        let button = CastButtonModel(context: context)
        let updates = button.updates()
        #expect(button.state.buttonState == .unavailable)
        let device = try await rig.run("adding the device") {
            try await context.discoveryManager.addDevice(host: "127.0.0.1", port: rig.port)
        }
        try await rig.run(until: "the button shows a device", watching: updates) {
            button.state.buttonState == .available
        }
        #expect(button.tap() == .presentDeviceChooser)

        _ = try await rig.run("the session start") { try await context.sessionManager.startSession(with: device) }
        try await rig.run(until: "the button shows the session", watching: updates) {
            button.state.buttonState == .connected
        }
        guard case .presentStopCastingDialog(let dialog) = button.tap() else {
            Issue.record("a tap while casting opens the stop-casting dialog")
            return
        }
        #expect(dialog.deviceName == device.friendlyName)
        #expect(dialog.deviceVolume?.percent == 40, "the dialog's volume comes from the device")
        try await rig.run("stop casting") { await button.stopCasting(stopReceiverApplication: true) }
        try await rig.run(until: "the button shows no session", watching: updates) {
            button.state.buttonState == .available
        }
        #expect(rig.engine?.runningApplication?.appID != DiscoveryCriteria.defaultMediaReceiverApplicationID)
    }

    // MARK: Device chooser

    @Test func chooserListsTheDeviceAndSelectingItStartsASession() async throws {
        let rig = InMemoryRig.widgets()
        let context = rig.context()
        let chooser = DeviceChooserModel(context: context, searchTimeout: .seconds(3600))
        let updates = chooser.updates()
        let device = try await rig.run("adding the device") {
            try await context.discoveryManager.addDevice(host: "127.0.0.1", port: rig.port, friendlyName: "Widget TV")
        }
        try await rig.run(until: "the chooser lists the device", watching: updates) {
            chooser.state.devices.map(\.name) == ["Widget TV"]
        }
        #expect(chooser.state.phase == .devices)
        try await rig.run("selecting the device") { try await chooser.select(device.id) }
        #expect(context.sessionManager.hasConnectedSession)
        #expect(chooser.state.connectingDeviceID == nil)
        #expect(chooser.state.errorMessage == nil)
        #expect(rig.engine?.runningApplication?.appID == DiscoveryCriteria.defaultMediaReceiverApplicationID)
    }

    // MARK: Device volume

    @Test func volumeControllerStepsMutesAndFollowsTheDevice() async throws {
        let rig = InMemoryRig.widgets { configuration in
            configuration.volume = Volume(level: 0.5, muted: false)
            configuration.volumeStepInterval = 0.1
        }
        let context = rig.context()
        let volume = DeviceVolumeController(context: context)
        let updates = volume.updates()
        #expect(!volume.state.inputEnabled, "no session: nothing to control")
        #expect(volume.volumeUp() == nil)
        _ = try await rig.run("the session start") { try await context.sessionManager.startSession(with: rig.target) }
        try await rig.run(until: "the controller is enabled", watching: updates) { volume.state.inputEnabled }
        #expect(volume.state.percent == 50)
        #expect(volume.state.stepInterval == 0.1)

        let up = try #require(volume.volumeUp())
        try await rig.run("the volume step up") { try await up.result }
        #expect(rig.engine?.deviceVolume.level == 0.6)
        try await rig.run(until: "the controller shows 60 %", watching: updates) { volume.state.percent == 60 }
        let down = try #require(volume.volumeDown())
        try await rig.run("a step down") { try await down.result }
        let downAgain = try #require(volume.volumeDown())
        try await rig.run("another step down") { try await downAgain.result }
        #expect(rig.engine?.deviceVolume.level == 0.4)
        let set = try #require(volume.setVolume(0.25))
        try await rig.run("the level set") { try await set.result }
        #expect(rig.engine?.deviceVolume.level == 0.25)
        let mute = try #require(volume.toggleMuted())
        try await rig.run("the mute") { try await mute.result }
        #expect(rig.engine?.deviceVolume.muted == true)
        try await rig.run(until: "the controller shows the mute", watching: updates) { volume.state.isMuted }
    }

    @Test func volumeControllerIsDisabledForAFixedVolumeDevice() async throws {
        let rig = InMemoryRig.widgets { $0.volumeControlType = .fixed }
        let context = rig.context()
        let volume = DeviceVolumeController(context: context)
        let updates = volume.updates()
        _ = try await rig.run("the session start") { try await context.sessionManager.startSession(with: rig.target) }
        try await rig.run(until: "the controller shows a fixed volume", watching: updates) {
            volume.state.isFixedVolume
        }
        #expect(!volume.state.inputEnabled)
        #expect(volume.volumeUp() == nil)
        #expect(volume.setVolume(0.1) == nil)
        #expect(volume.toggleMuted() == nil)
    }

    // MARK: Mini and expanded controllers, queue, repeat

    @Test func miniAndExpandedControllersShowAndDriveTheDevice() async throws {
        let images = InMemoryImageFetcher(["/poster.png": Self.poster])
        let cacheDirectory = Self.directory()
        defer { try? FileManager.default.removeItem(at: cacheDirectory) }
        let rig = InMemoryRig.widgets()
        let context = rig.context()
        context.imageCache = DiskImageCache(directory: cacheDirectory, fetcher: images)
        context.imagePicker = BestFitImagePicker()
        let container = CastContainerModel(context: context)
        let mini = container.miniController
        let expanded = container.expandedController
        let (miniUpdates, expandedUpdates, containerUpdates) = (mini.updates(), expanded.updates(), container.updates())
        let session = try await rig.run("the session start") {
            try await context.sessionManager.startSession(with: rig.target)
        }

        let media = WidgetMedia.movie(imageURL: images.url("/poster.png"))
        let items = [QueueItem(media: media, autoplay: true), QueueItem(media: media, autoplay: true)]
        try await rig.run("the QUEUE_LOAD") { try await session.remoteMediaClient.queueLoad(items).result }
        try await rig.run(until: "the mini controller shows the movie", watching: miniUpdates) {
            mini.state.isVisible && mini.state.title == "Big Buck Bunny"
        }
        #expect(mini.state.subtitle == "Blender Foundation")
        #expect(mini.state.thumbnailURL == images.url("/poster.png"))

        // The artwork comes through the context's cache and decodes to the served picture.
        try await rig.run(until: "the expanded controller's artwork", watching: expandedUpdates) {
            expanded.state.artwork?.image != nil
        }
        try await rig.run(until: "the mini controller's thumbnail", watching: miniUpdates) {
            mini.state.thumbnail?.image != nil
        }
        let picture = try #require(expanded.state.artwork?.image)
        #expect(picture.width == 8 && picture.height == 4)
        #expect(picture.pixel(x: 0, y: 0) == (255, 0, 0, 255))
        #expect(picture.pixel(x: 7, y: 3) == (0, 0, 255, 255))
        #expect(images.fetches("/poster.png") == 1, "one download, shared by both controllers")

        // Play/pause from the mini controller reaches the device.
        try await rig.run(until: "the mini controller offers pause", watching: miniUpdates) {
            mini.state.playPause.action == .pause
        }
        #expect(mini.togglePlayPause())
        try await rig.run(until: "the device pauses") { rig.media?.playerState == .paused }
        try await rig.run(until: "the expanded controller offers play", watching: expandedUpdates) {
            expanded.state.playPause.action == .play
        }

        // Selecting the mini controller presents the expanded one and hides the mini.
        #expect(mini.select())
        try await rig.run(until: "the expanded controller is presented", watching: containerUpdates) {
            container.state.isExpandedControllerPresented
        }
        #expect(!container.state.showsMiniController)

        // The expanded controller's queue and repeat controls.
        try await rig.run(until: "the queue offers the next item", watching: expandedUpdates) {
            expanded.state.queue.canSkipToNext
        }
        #expect(!expanded.state.queue.canSkipToPrevious)
        let firstItem = try #require(rig.media?.currentItemID)
        let next = try #require(expanded.mediaController.skipToNext())
        try await rig.run("the skip to the next item") { try await next.result }
        #expect(rig.media?.currentItemID != firstItem)
        try await rig.run(until: "the queue offers the previous item", watching: expandedUpdates) {
            expanded.state.queue.canSkipToPrevious
        }
        #expect(expanded.state.queue.repeatMode == .off)
        let repeatAll = try #require(expanded.mediaController.cycleRepeatMode())
        try await rig.run("repeat all") { try await repeatAll.result }
        #expect(rig.media?.repeatMode == .all)
        try await rig.run(until: "the controller shows repeat all", watching: expandedUpdates) {
            expanded.state.queue.repeatMode == .all
        }
        let repeatOne = try #require(expanded.mediaController.cycleRepeatMode())
        try await rig.run("repeat one") { try await repeatOne.result }
        #expect(rig.media?.repeatMode == .single)
        let previous = try #require(expanded.mediaController.skipToPrevious())
        try await rig.run("the skip to the previous item") { try await previous.result }
        #expect(rig.media?.currentItemID == firstItem)

        // +30 s and the device volume shown with the controls.
        let forward = try #require(expanded.mediaController.skipForward())
        try await rig.run("the skip forward") { try await forward.result }
        #expect(rig.media?.currentTime == 30, "no time passes: the position moved by the skip alone")
        #expect(expanded.state.deviceVolume?.inputEnabled == true)

        // The stream mute binding.
        try await rig.run(until: "the stream volume can mute", watching: expandedUpdates) {
            expanded.state.streamVolume?.canMute == true
        }
        let mute = try #require(expanded.mediaController.toggleStreamMuted())
        try await rig.run("the stream mute") { try await mute.result }
        #expect(rig.media?.volume?.muted == true)
        try await rig.run(until: "the controller shows the stream muted", watching: expandedUpdates) {
            expanded.state.streamVolume?.isMuted == true
        }
    }

    @Test func theContextPresentsTheExpandedControlsAfterALoadWhenAsked() async throws {
        let rig = InMemoryRig.widgets()
        let context = rig.context()
        let triggers = context.expandedMediaControlsTriggers()
        let container = CastContainerModel(context: context)
        let updates = container.updates()
        let session = try await rig.run("the session start") {
            try await context.sessionManager.startSession(with: rig.target)
        }

        // Not asked: the trigger is announced, nothing is presented.
        try await rig.run("the LOAD") {
            try await session.remoteMediaClient.load(LoadRequestData(media: WidgetMedia.movie())).result
        }
        let announced = try await rig.run("the trigger") { () async -> Bool in
            for await _ in triggers { return true }
            return false
        }
        #expect(announced)
        await rig.drain()
        #expect(!container.state.isExpandedControllerPresented)

        context.useDefaultExpandedMediaControls = true
        context.presentDefaultExpandedMediaControls()
        try await rig.run(until: "the expanded controls are presented", watching: updates) {
            container.state.isExpandedControllerPresented
        }
        container.dismissExpandedController()
        #expect(!container.state.isExpandedControllerPresented)
        // A LOAD that fails presents nothing; one that succeeds does.
        let refused = session.remoteMediaClient.load(LoadRequestData())
        #expect(refused.error?.code == .invalidRequest)
        await rig.drain()
        #expect(!container.state.isExpandedControllerPresented)
        try await rig.run("the QUEUE_LOAD") {
            try await session.remoteMediaClient.queueLoad([QueueItem(media: WidgetMedia.movie())]).result
        }
        try await rig.run(until: "the expanded controls are presented after the load", watching: updates) {
            container.state.isExpandedControllerPresented
        }
        #expect(!container.state.showsMiniController)
    }

    // MARK: Rate and tracks

    @Test func rateControllerAndTrackSelectorChangeTheDevice() async throws {
        let rig = InMemoryRig.widgets()
        let context = rig.context()
        let media = MediaController(context: context)
        let tracks = TrackSelectionModel(mediaController: media)
        let (mediaUpdates, trackUpdates) = (media.updates(), tracks.updates())
        let session = try await rig.run("the session start") {
            try await context.sessionManager.startSession(with: rig.target)
        }
        try await rig.run("the LOAD") {
            try await session.remoteMediaClient.load(LoadRequestData(media: WidgetMedia.movie())).result
        }
        try await rig.run(until: "the rate control is enabled", watching: mediaUpdates) {
            media.state.playbackRate.inputEnabled
        }
        try await rig.run(until: "the track selector is enabled", watching: trackUpdates) {
            tracks.state.inputEnabled
        }

        let double = try #require(media.setPlaybackRate(.double))
        try await rig.run("the rate 2") { try await double.result }
        #expect(rig.media?.playbackRate == 2)
        try await rig.run(until: "the rate control shows 2×", watching: mediaUpdates) {
            media.state.playbackRate.segment == .double
        }
        let half = try #require(media.setPlaybackRate(.half))
        try await rig.run("the rate 0.5") { try await half.result }
        #expect(rig.media?.playbackRate == 0.5)

        #expect(tracks.state.textTracks.map(\.title) == ["English", "Français"])
        #expect(tracks.state.audioTracks.map(\.title) == ["Stereo", "Commentary"])
        let french = try #require(tracks.selectTextTrack(2))
        try await rig.run("the French subtitles") { try await french.result }
        #expect(rig.media?.activeTrackIDs == [2])
        try await rig.run(until: "the selector shows the French subtitles", watching: trackUpdates) {
            tracks.state.selectedTextTrackID == 2
        }
        let commentary = try #require(tracks.selectAudioTrack(4))
        try await rig.run("the commentary") { try await commentary.result }
        #expect(rig.media?.activeTrackIDs == [2, 4])
        try await rig.run(until: "the selector shows the commentary", watching: trackUpdates) {
            tracks.state.selectedAudioTrackID == 4
        }
        let english = try #require(tracks.selectTextTrack(1))
        try await rig.run("the English subtitles") { try await english.result }
        #expect(rig.media?.activeTrackIDs == [1, 4], "one text track at a time")
        try await rig.run(until: "the selector shows the English subtitles", watching: trackUpdates) {
            tracks.state.selectedTextTrackID == 1
        }
        let style = try #require(tracks.setTextTrackStyle(.highContrast))
        try await rig.run("the text style") { try await style.result }
        #expect(
            rig.media?.media?.textTrackStyle?.foregroundColor
                == TextTrackStylePreset.highContrast.style.foregroundColor
        )
        try await rig.run(until: "the selector shows the style", watching: trackUpdates) {
            tracks.state.selectedStylePresetID == "high-contrast"
        }
        let off = try #require(tracks.selectTextTrack(nil))
        try await rig.run("subtitles off") { try await off.result }
        #expect(rig.media?.activeTrackIDs == [4])
        try await rig.run(until: "the selector shows subtitles off", watching: trackUpdates) {
            tracks.state.selectedTextTrackID == nil
        }
        #expect(tracks.selectAudioTrack(1) == nil, "track 1 is a text track")
    }

    // MARK: Ad skip

    @Test func skipAdFromTheMediaControllerEndsTheBreakOnTheDevice() async throws {
        let rig = InMemoryRig.widgets()
        let context = rig.context()
        let media = MediaController(context: context)
        let updates = media.updates()
        let session = try await rig.run("the session start") {
            try await context.sessionManager.startSession(with: rig.target)
        }
        try await rig.run("the LOAD") {
            try await session.remoteMediaClient.load(LoadRequestData(media: WidgetMedia.movie(adBreak: true))).result
        }
        #expect(rig.media?.breakStatus?.breakClipID == "clip-1")
        try await rig.run(until: "the controller offers the skip", watching: updates) {
            media.state.adBreak?.canSkip == true
        }
        #expect(media.state.adBreak?.clipTitle == "A word from our sponsor")
        #expect(!media.state.seekBar.isSeekable, "no seeking during an ad")
        let skip = try #require(media.skipAd())
        try await rig.run("the skip") { try await skip.result }
        #expect(rig.media?.breakStatus == nil)
        try await rig.run(until: "the controller shows the break over", watching: updates) {
            media.state.adBreak == nil
        }
        #expect(rig.media?.media?.breaks?.first?.isWatched == true)
    }
}
