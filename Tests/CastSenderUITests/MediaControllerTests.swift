import CastCore
import CastNet
import CastSender
import CastSenderTestSupport
import CastTime
import Testing

@testable import CastSenderUI

@Suite struct MediaControllerTests {
    static func media(duration: Double = 600) -> MediaInformation {
        var metadata = MediaMetadata(metadataType: .movie)
        metadata.title = "Sintel"
        metadata.subtitle = "Blender Foundation"
        metadata.images = [
            MediaImage(url: "https://img.example/small.jpg", width: 120, height: 90),
            MediaImage(url: "https://img.example/large.jpg", width: 1920, height: 1080),
        ]
        return MediaInformation(
            contentID: "sintel.mp4",
            streamType: .buffered,
            contentType: "video/mp4",
            metadata: metadata,
            duration: duration,
            tracks: MediaControlStateTests.tracks,
            breakClips: [AdBreakClip(id: "clip-1", duration: 20, title: "Ad", whenSkippable: 5)]
        )
    }

    @Test func followsTheSessionAndSendsCommands() async throws {
        let harness = Harness()
        let context = harness.context()
        let controller = MediaController(context: context)
        #expect(controller.state == .empty)

        let session = try await context.sessionManager.startSession(with: harness.deviceInfo, host: nil, port: nil)
        let client = session.remoteMediaClient
        try await client.load(LoadRequestData(media: Self.media(), activeTrackIDs: [1, 3])).result
        #expect(await harness.waitUntil { controller.state.isMediaLoaded })
        var state = controller.state
        #expect(state.title == "Sintel" && state.isConnected)
        #expect(state.playPause == PlayPauseToggle(action: .pause, inputEnabled: true))
        #expect(state.tracks.activeTrackIDs == [1, 3])
        #expect(state.playbackRate == PlaybackRateControllerState(rate: 1, inputEnabled: true))

        // The position moves with the clock only when the front end ticks.
        harness.clock.advance(by: .seconds(12))
        #expect(controller.state.seekBar.position == 0)
        controller.tick()
        #expect(controller.state.seekBar.position == 12)

        try await #require(controller.togglePlayPause()).result
        #expect(await harness.waitUntil { controller.state.playPause.action == .play })
        #expect(harness.device.received(type: "PAUSE", namespace: .media).count == 1)

        // The scripted device reports position 0 once paused: +30 s seeks to 30.
        #expect(await harness.waitUntil { controller.ticked.seekBar.position == 0 })
        try await #require(controller.skipForward()).result
        #expect(await harness.waitUntil { controller.ticked.seekBar.position == 30 })
        #expect(harness.device.received(type: "SEEK", namespace: .media).last?.contains("\"currentTime\":30") == true)
        try await #require(controller.skipBackward(by: 100)).result
        #expect(await harness.waitUntil { controller.ticked.seekBar.position == 0 })
        try await #require(controller.seek(to: 9_999)).result
        #expect(await harness.waitUntil { controller.ticked.seekBar.position == 600 })

        try await #require(controller.setPlaybackRate(.double)).result
        #expect(await harness.waitUntil { controller.state.playbackRate.segment == .double })
        #expect(harness.device.media?.playbackRate == 2)

        try await #require(controller.selectTrack(2)).result
        #expect(await harness.waitUntil { controller.state.tracks.activeTrackIDs == [2, 3] })
        try await #require(controller.deselectTrack(2)).result
        #expect(await harness.waitUntil { controller.state.tracks.activeTrackIDs == [3] })

        try await #require(controller.togglePlayPause()).result
        #expect(await harness.waitUntil { controller.state.playPause.action == .pause })
        state = controller.state
        #expect(state.lastKnownPlayerState == .playing)

        // The session ends: the last known position and state stay for local playback.
        try await #require(controller.pause()).result
        harness.clock.advance(by: .seconds(30))
        await context.sessionManager.endSession()
        #expect(await harness.waitUntil { !controller.state.isConnected })
        state = controller.state
        #expect(!state.isMediaLoaded)
        #expect(state.lastKnownPlayerState == .paused)
        #expect(state.lastKnownStreamPosition == 600)
        #expect(controller.lastKnownStreamPosition == 600)
        #expect(controller.play() == nil)
    }

    @Test func skipAdAfterTheCountdown() async throws {
        let harness = Harness()
        let context = harness.context()
        let controller = MediaController(context: context)
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo, host: nil, port: nil)
        try await session.remoteMediaClient.load(LoadRequestData(media: Self.media())).result
        harness.device.pushMediaStatus {
            $0.supportedMediaCommands = MediaCommands.allBasicMedia.union(.skipAd)
            $0.breakStatus = AdBreakStatus(breakID: "b1", breakClipID: "clip-1", currentBreakClipTime: 0)
        }
        #expect(await harness.waitUntil { controller.state.adBreak != nil })
        #expect(controller.state.adBreak?.skipLabel == "Skip ad in 5…")
        #expect(controller.skipAd() == nil)
        var labels: [String] = []
        for _ in 0..<5 {
            harness.clock.advance(by: .seconds(1))
            controller.tick()
            labels.append(controller.state.adBreak?.skipLabel ?? "")
        }
        #expect(labels == ["Skip ad in 4…", "Skip ad in 3…", "Skip ad in 2…", "Skip ad in 1…", "Skip ad"])
        let skip = try #require(controller.skipAd())
        _ = await skip.waitForOutcome()
        #expect(harness.device.received(type: "SKIP_AD", namespace: .media).count == 1)
        harness.device.pushMediaStatus { $0.breakStatus = nil }
        #expect(await harness.waitUntil { controller.state.adBreak == nil })
        #expect(controller.state.seekBar.isSeekable)
        await context.sessionManager.endSession()
    }

    @Test func rateControlDisabledWithoutSupport() async throws {
        let harness = Harness()
        let context = harness.context()
        let controller = MediaController(context: context)
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo, host: nil, port: nil)
        try await session.remoteMediaClient.load(LoadRequestData(media: Self.media())).result
        harness.device.pushMediaStatus { $0.supportedMediaCommands = [.pause, .seek] }
        #expect(
            await harness.waitUntil { controller.state.isMediaLoaded && !controller.state.playbackRate.inputEnabled }
        )
        #expect(controller.setPlaybackRate(.half) == nil)
        #expect(controller.selectTrack(2) == nil)
        #expect(harness.device.received(type: "SET_PLAYBACK_RATE", namespace: .media).isEmpty)
        await context.sessionManager.endSession()
    }

    @Test func attachesToASessionThatAlreadyRuns() async throws {
        let harness = Harness()
        let context = harness.context()
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo, host: nil, port: nil)
        try await session.remoteMediaClient.load(LoadRequestData(media: Self.media())).result
        let controller = MediaController(context: context)
        #expect(controller.state.isMediaLoaded && controller.state.title == "Sintel")
        await context.sessionManager.endSession()
    }

    @Test func miniExpandedAndContainer() async throws {
        let harness = Harness()
        let context = harness.context()
        let controller = MediaController(context: context)
        let container = CastContainerModel(mediaController: controller, imagePicker: BestFitImagePicker())
        let mini = container.miniController
        #expect(!mini.state.isVisible && !container.state.showsMiniController)
        #expect(!mini.select())

        let session = try await context.sessionManager.startSession(with: harness.deviceInfo, host: nil, port: nil)
        try await session.remoteMediaClient.load(LoadRequestData(media: Self.media())).result
        #expect(await harness.waitUntil { container.state.showsMiniController })
        let miniState = mini.state
        #expect(miniState.title == "Sintel" && miniState.subtitle == "Blender Foundation")
        #expect(miniState.thumbnailURL == "https://img.example/large.jpg")
        #expect(miniState.progress == 0)
        #expect(miniState.playPause.action == .pause)

        let expanded = container.expandedController.state
        #expect(expanded.artworkURL == "https://img.example/large.jpg")
        #expect(expanded.showsSeekBar && expanded.canStop && expanded.canSkipBy30Seconds)
        #expect(expanded.tracks.hasTracks && expanded.playbackRate.inputEnabled)

        // Selecting the mini controller presents the expanded controller, which hides it.
        #expect(mini.select())
        #expect(await harness.waitUntil { container.state.isExpandedControllerPresented })
        #expect(!container.state.showsMiniController)
        container.dismissExpandedController()
        #expect(container.state.showsMiniController)

        container.miniMediaControlsItemEnabled = false
        #expect(!container.state.showsMiniController)
        container.miniMediaControlsItemEnabled = true
        var miniUpdates = mini.updates().makeAsyncIterator()
        var containerUpdates = container.updates().makeAsyncIterator()
        mini.isEnabled = false
        #expect(!mini.state.isVisible && !container.state.showsMiniController)
        #expect(await miniUpdates.next()?.isVisible == false)
        #expect(await containerUpdates.next()?.showsMiniController == false)
        mini.isEnabled = true
        #expect(await miniUpdates.next()?.isVisible == true)

        #expect(mini.togglePlayPause())
        #expect(await harness.waitUntil { mini.state.playPause.action == .play })
        await context.sessionManager.endSession()
        #expect(await harness.waitUntil { !container.state.showsMiniController })
    }

    @Test func expandedControllerHidesLiveSeekBarWhenAsked() {
        let controller = MediaController(sessionManager: Harness().context().sessionManager)
        let expanded = ExpandedControllerModel(
            mediaController: controller,
            hidesStreamPositionControlsForLiveContent: true
        )
        var inputs = MediaControlInputs(
            isConnected: true,
            status: MediaControlStateTests.status(duration: nil, streamType: .live)
        )
        inputs.liveSeekableRange = 0...60
        #expect(!expanded.state(for: MediaControlState(inputs)).showsSeekBar)
        #expect(expanded.state(for: MediaControlStateTests.state(MediaControlStateTests.status())).showsSeekBar)
    }
}

extension MediaController {
    /// The state after a tick, as a front end that ticks while it waits would see it: the
    /// remote media client settles a seek's target shortly after its reply.
    var ticked: MediaControlState {
        tick()
        return state
    }
}
