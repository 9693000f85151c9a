import CastCore
import Testing

@testable import CastSenderUI

@Suite struct MediaControlStateTests {
    static let tracks = [
        MediaTrack(trackID: 1, type: .text, name: "English", language: "en"),
        MediaTrack(trackID: 2, type: .text, language: "fr"),
        MediaTrack(trackID: 3, type: .audio, name: "Original"),
        MediaTrack(trackID: 4, type: .audio, name: "Commentary"),
        MediaTrack(trackID: 5, type: .video),
    ]

    static func status(
        _ playerState: PlayerState = .playing,
        commands: MediaCommands? = .allBasicMedia,
        duration: Double? = 600,
        streamType: StreamType = .buffered,
        configure: (inout MediaStatus) -> Void = { _ in }
    ) -> MediaStatus {
        var metadata = MediaMetadata(metadataType: .movie)
        metadata.title = "Big Buck Bunny"
        metadata.studio = "Blender Foundation"
        var status = MediaStatus(
            mediaSessionID: 1,
            media: MediaInformation(
                contentID: "bbb.mp4",
                streamType: streamType,
                metadata: metadata,
                duration: duration,
                tracks: tracks
            ),
            playbackRate: 1,
            playerState: playerState,
            currentTime: 10,
            supportedMediaCommands: commands,
            activeTrackIDs: [1, 3]
        )
        configure(&status)
        return status
    }

    static func state(_ status: MediaStatus?, position: Double = 10, since: Double = 0) -> MediaControlState {
        MediaControlState(MediaControlInputs(isConnected: true, status: status, position: position, sinceStatus: since))
    }

    @Test func nothingLoaded() {
        let state = MediaControlState.empty
        #expect(!state.isMediaLoaded && !state.isConnected)
        #expect(state.playPause == PlayPauseToggle(action: .none, inputEnabled: false))
        #expect(!state.seekBar.isSeekable && !state.canStop && !state.canSkipBy30Seconds)
        #expect(state.playbackRate == PlaybackRateControllerState(rate: nil, inputEnabled: false))
        #expect(!state.tracks.inputEnabled && !state.tracks.hasTracks)
        #expect(state.adBreak == nil)
    }

    @Test(arguments: [
        (PlayerState.playing, PlayPauseToggle.Action.pause), (.buffering, .pause), (.paused, .play), (.idle, .none),
    ])
    func playPauseToggleFollowsPlayerState(playerState: PlayerState, action: PlayPauseToggle.Action) {
        let state = Self.state(Self.status(playerState))
        #expect(state.playPause.action == action)
        #expect(state.playPause.inputEnabled == (action != .none))
        #expect(state.isMediaLoaded == (action != .none))
    }

    @Test func seekBarOfBufferedMedia() {
        let state = Self.state(Self.status(), position: 150)
        #expect(state.seekBar == SeekBarState(position: 150, duration: 600, isLive: false, isSeekable: true))
        #expect(state.seekBar.progress == 0.25)
        #expect(state.seekBar.positionText == "2:30")
        #expect(state.seekBar.durationText == "10:00")
        #expect(state.seekBar.remainingText == "-7:30")
        #expect(state.canSkipBy30Seconds && state.canStop)
        #expect(state.title == "Big Buck Bunny" && state.subtitle == "Blender Foundation")
    }

    @Test func seekingNeedsTheCommandAndADuration() {
        #expect(!Self.state(Self.status(commands: [.pause])).seekBar.isSeekable)
        #expect(!Self.state(Self.status(duration: nil)).seekBar.isSeekable)
        #expect(Self.state(Self.status(commands: nil)).seekBar.isSeekable)
    }

    @Test func liveStreamUsesTheSeekableRange() {
        var inputs = MediaControlInputs(
            isConnected: true,
            status: Self.status(duration: nil, streamType: .live),
            position: 90
        )
        #expect(!MediaControlState(inputs).seekBar.isSeekable)
        inputs.liveSeekableRange = 60...120
        let state = MediaControlState(inputs)
        #expect(state.seekBar.isLive && state.seekBar.isSeekable)
        #expect(state.seekBar.duration == 120)
        #expect(state.seekBar.progress == 0.5)
    }

    @Test(arguments: [
        (0.0, "0:00"), (59.9, "0:59"), (61, "1:01"), (3600, "1:00:00"), (3725, "1:02:05"), (-5, "0:00"),
        (Double.nan, "0:00"),
        // A duration a hostile device reports: clamped, never a trapping conversion.
        (1e300, "596523:14:07"), (-1e300, "0:00"), (Double.infinity, "0:00"),
    ])
    func timeFormatting(seconds: Double, text: String) {
        #expect(SeekBarState.format(seconds) == text)
    }

    @Test func playbackRateControllerEnabledOnlyWhenSupported() {
        let supported = Self.state(Self.status { $0.playbackRate = 0.5 })
        #expect(supported.playbackRate == PlaybackRateControllerState(rate: 0.5, inputEnabled: true))
        #expect(supported.playbackRate.segment == .half)
        let unsupported = Self.state(Self.status(commands: [.pause, .seek]))
        #expect(!unsupported.playbackRate.inputEnabled)
        #expect(unsupported.playbackRate.segment == .normal)
        let unknown = Self.state(Self.status(commands: nil))
        #expect(!unknown.playbackRate.inputEnabled)
    }

    @Test func tracksFromTheMediaAndTheActiveIDs() {
        let tracks = Self.state(Self.status()).tracks
        #expect(tracks.inputEnabled && tracks.hasTracks)
        #expect(tracks.textTracks.map(\.title) == ["English", "fr"])
        #expect(tracks.audioTracks.map(\.title) == ["Original", "Commentary"])
        #expect(tracks.textTracks.map(\.isActive) == [true, false])
        #expect(tracks.selecting(2) == [2, 3])
        #expect(tracks.selecting(4) == [1, 4])
        #expect(tracks.selecting(5) == [1, 3, 5])
        #expect(tracks.selecting(99) == [1, 3])
        #expect(tracks.deselecting(1) == [3])
        #expect(!Self.state(Self.status(commands: [.pause])).tracks.inputEnabled)
    }

    @Test func adCountdownThenSkippable() {
        let status = Self.status {
            $0.supportedMediaCommands = MediaCommands.allBasicMedia.union(.skipAd)
            $0.media?.breakClips = [AdBreakClip(id: "clip-1", duration: 15, title: "Ad 1", whenSkippable: 5)]
            $0.breakStatus = AdBreakStatus(breakID: "b1", breakClipID: "clip-1", currentBreakClipTime: 1.5)
        }
        let counting = Self.state(status, since: 0.5)
        #expect(counting.adBreak?.skip == .countdown(seconds: 3))
        #expect(counting.adBreak?.skipLabel == "Skip ad in 3…")
        #expect(counting.adBreak?.clipTitle == "Ad 1")
        #expect(counting.adBreak?.clipRemaining == 13)
        #expect(!counting.seekBar.isSeekable)
        #expect(Self.state(status, since: 2.6).adBreak?.skipLabel == "Skip ad in 1…")
        let ready = Self.state(status, since: 3.5)
        #expect(ready.adBreak?.skip == .available && ready.adBreak?.canSkip == true)
        #expect(ready.adBreak?.skipLabel == "Skip ad")
        #expect(Self.state(status, since: 100).adBreak?.clipTime == 15)
    }

    /// An ad skippable only after 1e300 s (a hostile device's, past the SDK's checks) counts
    /// down with a saturated number instead of trapping on the conversion to `Int`.
    @Test(arguments: [1e300, 1.7976931348623157e308, 9.3e18])
    func anEndlessSkipCountdownSaturates(whenSkippable: Double) {
        let status = Self.status {
            $0.supportedMediaCommands = MediaCommands.allBasicMedia.union(.skipAd)
            $0.media?.breakClips = [AdBreakClip(id: "clip-1", duration: 15, title: "Ad 1")]
            $0.breakStatus = AdBreakStatus(
                breakID: "b1",
                breakClipID: "clip-1",
                currentBreakClipTime: -1e300,
                whenSkippable: whenSkippable
            )
        }
        let ad = Self.state(status, since: 0.5).adBreak
        #expect(ad?.skip == .countdown(seconds: Int(Int32.max)))
        #expect(ad?.skipLabel == "Skip ad in \(Int32.max)…")
    }

    @Test func adClockStopsWhilePaused() {
        let status = Self.status(.paused) {
            $0.supportedMediaCommands = MediaCommands.allBasicMedia.union(.skipAd)
            $0.breakStatus = AdBreakStatus(breakID: "b1", breakClipID: "c", currentBreakClipTime: 1, whenSkippable: 5)
        }
        #expect(Self.state(status, since: 30).adBreak?.skip == .countdown(seconds: 4))
    }

    /// Receivers offer SKIP_AD only once the clip can be skipped: the countdown runs before.
    @Test func theCountdownRunsBeforeTheReceiverOffersSkipAd() {
        let early = Self.status {
            $0.breakStatus = AdBreakStatus(breakID: "b1", breakClipID: "c", currentBreakClipTime: 2, whenSkippable: 5)
        }
        #expect(Self.state(early).adBreak?.skipLabel == "Skip ad in 3…")
        #expect(Self.state(early).adBreak?.canSkip == false)
        let offered = Self.status {
            $0.supportedMediaCommands = MediaCommands.allBasicMedia.union(.skipAd)
            $0.breakStatus = AdBreakStatus(breakID: "b1", breakClipID: "c", currentBreakClipTime: 5, whenSkippable: 5)
        }
        #expect(Self.state(offered).adBreak?.canSkip == true)
    }

    @Test func adWithoutSkipSupportIsNotSkippable() {
        let unskippable = Self.status {
            $0.supportedMediaCommands = MediaCommands.allBasicMedia.union(.skipAd)
            $0.breakStatus = AdBreakStatus(breakID: "b1", breakClipID: "c")
        }
        #expect(Self.state(unskippable).adBreak?.skipLabel == "Ad")
        let noCommand = Self.status {
            $0.breakStatus = AdBreakStatus(breakID: "b1", breakClipID: "c", whenSkippable: 0)
        }
        #expect(Self.state(noCommand).adBreak?.skip == .notSkippable)
    }

    @Test func lastKnownValuesWithoutAMediaSession() {
        let inputs = MediaControlInputs(
            isConnected: false,
            status: nil,
            lastKnownPlayerState: .paused,
            lastKnownStreamPosition: 42
        )
        let state = MediaControlState(inputs)
        #expect(state.lastKnownPlayerState == .paused)
        #expect(state.lastKnownStreamPosition == 42)
        #expect(state.seekBar.position == 42)
        #expect(!state.isMediaLoaded)
    }
}
