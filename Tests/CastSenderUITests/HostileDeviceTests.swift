import CastCore
import CastSenderTestSupport
import CastTestSupport
import Foundation
import TerminalUI
import Testing

@testable import CastEmulator
@testable import CastSender
@testable import CastSenderUI

/// A fake device against the SDK and the widgets, in memory (``InMemoryRig``): the virtual
/// device plays the media as usual, but its MEDIA_STATUS and RECEIVER_STATUS carry a hostile
/// device's numbers (durations of 1e300, positions past any range, skip times of 1e300, huge
/// arrays, a volume of 1e300). Nothing traps, every value the widgets show is in range, and the
/// session keeps working.
@Suite struct HostileDeviceTests {
    typealias Rewrite = HostilePayloads.Rewrite

    /// The pieces of one run: the device, a connected session with media loaded, the models.
    struct Run {
        let rig: InMemoryRig
        let context: CastContext
        let session: CastSession
        let controller: MediaController
        let expanded: ExpandedControllerModel
        let mini: MiniControllerModel
        let volume: DeviceVolumeController
        /// The volume controller's states since before the session started.
        let volumeUpdates: AsyncStream<DeviceVolumeState>
        var client: RemoteMediaClient { session.remoteMediaClient }

        func stop() async throws {
            let context = context
            try await rig.run("the session end") { await context.sessionManager.endSession(stopCasting: false) }
        }
    }

    /// Makes a hostile device, connects, loads `media` and waits until the controls show it.
    static func run(
        media: MediaInformation = WidgetMedia.movie(),
        _ rewrite: @escaping Rewrite
    ) async throws
        -> Run
    {
        let rig = InMemoryRig.wrapping(
            name: "Hostile TV",
            configure: { $0.bufferingDelay = .zero },
            engine: { engine in OutgoingRewriteEngine(inner: engine, rewrite: HostilePayloads.messageRewrite(rewrite)) }
        )
        let context = rig.context()
        let controller = MediaController(context: context)
        let expanded = ExpandedControllerModel(mediaController: controller)
        let mini = MiniControllerModel(mediaController: controller)
        let volume = DeviceVolumeController(context: context)
        let (controllerUpdates, volumeUpdates) = (controller.updates(), volume.updates())
        let session = try await rig.run("adding the device and the session start") {
            let target = try await context.discoveryManager.addDevice(host: "127.0.0.1", port: rig.port)
            return try await context.sessionManager.startSession(with: target)
        }
        try await rig.run("the LOAD") {
            try await session.remoteMediaClient.load(LoadRequestData(media: media, autoplay: true)).result
        }
        // The controls show the media the hostile device plays.
        try await rig.run(until: "the controls show the media", watching: controllerUpdates) {
            controller.tick()
            return controller.state.isMediaLoaded
        }
        return Run(
            rig: rig,
            context: context,
            session: session,
            controller: controller,
            expanded: expanded,
            mini: mini,
            volume: volume,
            volumeUpdates: volumeUpdates
        )
    }

    /// What every widget shows is in range and renders, as castvideos draws it.
    static func expectSaneWidgets(_ run: Run) {
        run.controller.tick()
        let state = run.controller.state
        let seekBar = state.seekBar
        if let progress = seekBar.progress { #expect((0...1).contains(progress)) }
        for text in [seekBar.positionText, seekBar.durationText, seekBar.remainingText] {
            #expect(text.count <= 16, "seek bar text \(text)")
        }
        let bar = SeekBar(position: seekBar.position, duration: seekBar.duration).render(width: 60)
        #expect(TextLayout.width(of: bar) <= 60)
        #expect(run.expanded.state(for: state).seekBar == seekBar)
        #expect(run.mini.state(for: state).progress == seekBar.progress)
        if let stream = state.streamVolume { #expect((0...1).contains(stream.level)) }
        let position = run.client.approximateStreamPosition
        #expect(position.isFinite && position >= 0)
        if let duration = run.client.mediaStatus?.media?.duration, duration > 0 { #expect(position <= duration) }
    }

    /// The device still answers and the session stays connected.
    static func expectStillWorking(_ run: Run) async throws {
        let client = run.client
        try await run.rig.run("a PAUSE") { try await client.pause().result }
        try await run.rig.run("a GET_STATUS") { try await client.requestStatus().result }
        #expect(run.session.connectionState == .connected)
    }

    static func statuses(_ payload: inout JSONValue, _ edit: (inout JSONValue) -> Void) {
        payload.editEach("status", edit)
    }

    @Test(arguments: [1e300, -1e300, 1.7976931348623157e308, Double.leastNonzeroMagnitude])
    func aMediaStatusWithAnOutOfRangeDuration(duration: Double) async throws {
        let run = try await Self.run { type, payload in
            guard type == "MEDIA_STATUS" else { return }
            Self.statuses(&payload) { status in
                if status["media"] != nil { status["media"]?["duration"] = .double(duration) }
            }
        }
        let reported = try #require(run.client.mediaStatus?.media?.duration)
        #expect(reported == min(max(duration, -WireNumber.maximumSeconds), WireNumber.maximumSeconds))
        Self.expectSaneWidgets(run)
        try await Self.expectStillWorking(run)
        try await run.stop()
    }

    @Test func aMediaStatusWithPositionsAndRatesPastAnyRange() async throws {
        let run = try await Self.run { type, payload in
            guard type == "MEDIA_STATUS" else { return }
            Self.statuses(&payload) { status in
                status["currentTime"] = .double(1.7976931348623157e308)
                status["playbackRate"] = .double(-1e300)
                status["volume"] = ["level": .double(1e300), "muted": false]
                status["liveSeekableRange"] = ["start": .double(-1e300), "end": .double(1e300)]
            }
        }
        let status = try #require(run.client.mediaStatus)
        #expect(status.currentTime == WireNumber.maximumSeconds)
        #expect(status.volume?.level == 1)
        Self.expectSaneWidgets(run)
        try await Self.expectStillWorking(run)
        try await run.stop()
    }

    @Test func anAdBreakThatIsSkippableOnlyAfter1e300Seconds() async throws {
        let run = try await Self.run(media: WidgetMedia.movie(adBreak: true)) { type, payload in
            guard type == "MEDIA_STATUS" else { return }
            Self.statuses(&payload) { status in
                status["supportedMediaCommands"] = .integer(Int(Int32.max))
                status["breakStatus"] = [
                    "breakId": "pre", "breakClipId": "clip-1", "currentBreakTime": .double(-1e300),
                    "currentBreakClipTime": .double(-1e300), "whenSkippable": .double(1e300),
                ]
            }
        }
        Self.expectSaneWidgets(run)
        let ad = try #require(run.controller.state.adBreak)
        #expect(ad.skip != .available, "an ad skippable after 1e300 s is not skippable now")
        #expect(ad.clipTime.isFinite && ad.clipTime >= -WireNumber.maximumSeconds)
        _ = ad.skipLabel
        try await Self.expectStillWorking(run)
        try await run.stop()
    }

    @Test func aMediaStatusWithHugeArrays() async throws {
        let run = try await Self.run { type, payload in
            guard type == "MEDIA_STATUS" else { return }
            Self.statuses(&payload) { status in
                status["activeTrackIds"] = .array((0..<8000).map { .integer($0 % 7) })
                status["items"] = .array((0..<2000).map { ["itemId": .integer($0 % 5 == 0 ? Int.max : $0)] })
                status["currentItemId"] = .integer(Int.max)
            }
        }
        Self.expectSaneWidgets(run)
        #expect(run.controller.state.tracks.activeTrackIDs.count == 8000)
        try await Self.expectStillWorking(run)
        try await run.stop()
    }

    @Test func aReceiverStatusWithAVolumeOf1e300() async throws {
        let run = try await Self.run { type, payload in
            guard type == "RECEIVER_STATUS" else { return }
            payload["status"]?["volume"]?["level"] = .double(1e300)
            payload["status"]?["volume"]?["stepInterval"] = .double(1e300)
        }
        try await run.rig.run(until: "the controller shows the clamped volume", watching: run.volumeUpdates) {
            run.session.deviceVolume?.level == 1 && run.volume.state.percent == 100
        }
        #expect(run.session.deviceVolumeIncrement == 1)
        let volume = run.volume.state
        #expect(volume.percent == 100 && volume.level == 1)
        #expect(volume.stepInterval <= 1)
        Self.expectSaneWidgets(run)
        try await Self.expectStillWorking(run)
        try await run.stop()
    }
}
