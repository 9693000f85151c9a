import CastCore
import CastNet
import CastTime
import Foundation
import Testing

@testable import CastEmulator

/// `LOAD` in the fetch and auto media modes: the engine asks for a probe, the probe reads
/// media from the project's HTTP server on loopback, and its outcome goes back to the engine
/// as the device feeds it.
@Suite struct MediaLoadProbeTests {
    static func load(_ url: String, contentType: String = "video/mp4", requestID: Int = 7) -> String {
        #"{"type":"LOAD","requestId":\#(requestID),"autoplay":true,"media":{"contentId":"\#(url)","streamType":"BUFFERED","contentType":"\#(contentType)"}}"#
    }

    static func probes(in actions: [DeviceAction]) -> [MediaProbeRequest] {
        actions.compactMap { action in
            if case .probeMedia(let request) = action { return request }
            return nil
        }
    }

    /// Runs the probe the engine asked for, as ``VirtualDevice`` does, and feeds the outcome back.
    static func runProbe(_ request: MediaProbeRequest, on device: inout DeviceHarness) async -> [DeviceAction] {
        let outcome: Result<MediaProbeResult, MediaLoadFailure>
        do throws(MediaLoadFailure) {
            outcome = .success(
                try await MediaFetcherTests.fetcher.probe(url: request.url, contentType: request.contentType)
            )
        } catch {
            outcome = .failure(error)
        }
        return device.engine.mediaProbed(request.id, outcome: outcome, at: device.now)
    }

    /// Loads `url` from the served media with the device in `mode`; returns the LOAD's
    /// actions and what followed the probe.
    static func loadServed(
        _ url: String,
        mode: MediaMode,
        contentType: String = "video/mp4",
        profile: DeviceProfile? = nil
    ) async throws -> (device: DeviceHarness, load: [DeviceAction], probed: [DeviceAction]) {
        var device = DeviceHarness { configuration in
            configuration.mediaMode = mode
            if let profile { configuration.profile = profile }
        }
        let transportID = device.startMediaApp()
        let load = device.media(Self.load(url, contentType: contentType), transportID: transportID)
        let request = try #require(Self.probes(in: load).first)
        #expect(request.url == url)
        device.advance(by: .seconds(2))
        let waiting = try #require(device.engine.mediaStatus(at: device.now))
        #expect(waiting.playerState == .idle, "no buffering deadline ends the wait for the media")
        #expect(waiting.extendedStatus?.playerState == .loading)
        let probed = await Self.runProbe(request, on: &device)
        return (device, load, probed)
    }

    @Test func loadingIsReportedWhileTheMediaIsRead() async throws {
        try await MediaFetcherTests.withServer { base in
            let (_, load, _) = try await Self.loadServed(base + "/end.mp4", mode: .fetch)
            let status = try #require(load.payloads(namespace: .media, type: "MEDIA_STATUS").first?["status"]?[0])
            #expect(status["playerState"] == "IDLE")
            #expect(status["extendedStatus"]?["playerState"] == "LOADING")
            #expect(status["extendedStatus"]?["mediaSessionId"] == 1)
            #expect(status["extendedStatus"]?["media"]?["contentId"]?.stringValue == base + "/end.mp4")
        }
    }

    @Test func aServedMP4ReportsItsOwnDurationAndPictureSize() async throws {
        try await MediaFetcherTests.withServer { base in
            // An HDMI dongle reports 1280x720 for simulated video: the probe's size replaces it.
            var (device, _, probed) = try await Self.loadServed(
                base + "/end.mp4",
                mode: .fetch,
                profile: .hdmiDongle
            )
            #expect(Self.probes(in: probed).isEmpty)
            probed += device.advance(by: .milliseconds(200))
            let reply = try #require(
                probed.payloads(namespace: .media, type: "MEDIA_STATUS").first { $0["requestId"] == 7 }
            )
            let status = try #require(reply["status"]?[0])
            #expect(status["playerState"] == "PLAYING")
            #expect(status["extendedStatus"] == nil)
            #expect(status["media"]?["duration"] == 8, "the file's mvhd duration, not the 600 s default")
            #expect(status["media"]?["streamType"] == "BUFFERED")
            #expect(status["media"]?["tracks"]?[0]?["type"] == "VIDEO")
            #expect(status["media"]?["tracks"]?[1]?["language"] == "eng")
            // The audio track the file plays is active, as CAF receivers report it.
            let audio = try #require(status["media"]?["tracks"]?[1]?["trackId"])
            #expect(status["activeTrackIds"] == [audio])
            let media = try #require(device.engine.mediaStatus(at: device.now))
            #expect(media.videoInfo?.width == 320)
            #expect(media.videoInfo?.height == 240)
        }
    }

    @Test func aMissingFileFailsWithMediaNetworkAfterLoading() async throws {
        try await MediaFetcherTests.withServer { base in
            let (device, load, probed) = try await Self.loadServed(base + "/missing.mp4", mode: .fetch)
            let loading = try #require(load.payloads(namespace: .media, type: "MEDIA_STATUS").first?["status"]?[0])
            #expect(loading["extendedStatus"]?["playerState"] == "LOADING")
            let failed = try #require(probed.payloads(namespace: .media, type: "LOAD_FAILED").first)
            #expect(failed["requestId"] == 7)
            #expect(failed["detailedErrorCode"] == 103)
            let error = try #require(probed.payloads(namespace: .media, type: "ERROR").first)
            #expect(error["detailedErrorCode"] == 103)
            #expect(error["reason"] == "GENERIC_LOAD_ERROR")
            let status = try #require(device.engine.mediaStatus(at: device.now))
            #expect(status.playerState == .idle)
            #expect(status.idleReason == .error)
        }
    }

    @Test func anUnknownFormatIsNotSupported() async throws {
        try await MediaFetcherTests.withServer { base in
            let (_, _, probed) = try await Self.loadServed(base + "/noise.bin", mode: .fetch)
            let failed = try #require(probed.payloads(namespace: .media, type: "LOAD_FAILED").first)
            #expect(failed["detailedErrorCode"] == 104)
        }
    }

    @Test func autoFallsBackToSimulatedMediaWhenTheHostIsUnreachable() async throws {
        // Port 1 on loopback: nothing listens, the connection is refused.
        var (device, _, probed) = try await Self.loadServed("http://127.0.0.1:1/clip.mp4", mode: .auto)
        #expect(probed.payloads(namespace: .media, type: "LOAD_FAILED").isEmpty)
        #expect(
            probed.contains { action in
                if case .log(let entry) = action { return entry.message.contains("unreachable") }
                return false
            }
        )
        probed += device.advance(by: .milliseconds(200))
        let status = try #require(device.engine.mediaStatus(at: device.now))
        #expect(status.playerState == .playing)
        #expect(status.media?.duration == 600)
    }

    @Test func fetchFailsWhenTheHostIsUnreachable() async throws {
        let (_, _, probed) = try await Self.loadServed("http://127.0.0.1:1/clip.mp4", mode: .fetch)
        let failed = try #require(probed.payloads(namespace: .media, type: "LOAD_FAILED").first)
        #expect(failed["detailedErrorCode"] == 103)
    }

    @Test func autoStillFailsOnAnHTTPError() async throws {
        try await MediaFetcherTests.withServer { base in
            let (_, _, probed) = try await Self.loadServed(base + "/missing.mp4", mode: .auto)
            #expect(probed.payloads(namespace: .media, type: "LOAD_FAILED").first?["detailedErrorCode"] == 103)
        }
    }

    @Test func aLiveHLSPlaylistIsLive() async throws {
        try await MediaFetcherTests.withServer { base in
            var (device, _, probed) = try await Self.loadServed(
                base + "/live.m3u8",
                mode: .fetch,
                contentType: "application/x-mpegurl"
            )
            probed += device.advance(by: .milliseconds(200))
            let status = try #require(device.engine.mediaStatus(at: device.now))
            #expect(status.media?.streamType == .live)
            #expect(status.media?.duration == nil)
        }
    }

    /// A picture: `mediaCategory` `IMAGE`, no duration, and it stays on screen (no end).
    @Test func aServedPictureIsShownAsAnImage() async throws {
        try await MediaFetcherTests.withServer { base in
            var (device, _, probed) = try await Self.loadServed(
                base + "/picture.png",
                mode: .fetch,
                contentType: "image/png"
            )
            probed += device.advance(by: .seconds(3600))
            let status = try #require(device.engine.mediaStatus(at: device.now))
            #expect(status.playerState == .playing)
            #expect(status.media?.duration == nil)
            #expect(status.media?.unknownMembers["mediaCategory"] == "IMAGE")
        }
    }

    /// Text tracks are read when activated: a good WebVTT track stays on; an SRT file, a
    /// missing one, gives `ERROR` `TEXT_UNKNOWN` (600) and the track is switched off while the
    /// media plays on.
    @Test(arguments: [("/captions.vtt", nil as Int?), ("/captions.srt", 600), ("/no-captions.vtt", 600)])
    func activatedTextTracksAreRead(path: String, errorCode: Int?) async throws {
        try await MediaFetcherTests.withServer { base in
            var device = DeviceHarness { $0.mediaMode = .fetch }
            let transportID = device.startMediaApp()
            let load =
                #"{"type":"LOAD","requestId":7,"autoplay":true,"media":{"contentId":"\#(base)/start.mp4","streamType":"BUFFERED","contentType":"video/mp4","tracks":[{"trackId":1,"type":"TEXT","subtype":"SUBTITLES","trackContentId":"\#(base)\#(path)","trackContentType":"text/vtt","language":"en"}]}}"#
            let request = try #require(Self.probes(in: device.media(load, transportID: transportID)).first)
            _ = await Self.runProbe(request, on: &device)
            _ = device.advance(by: .seconds(1))
            let sessionID = try #require(device.engine.mediaStatus(at: device.now)?.mediaSessionID)
            let edit = device.media(
                #"{"type":"EDIT_TRACKS_INFO","requestId":8,"mediaSessionId":\#(sessionID),"activeTrackIds":[1]}"#,
                transportID: transportID
            )
            let textRequest = try #require(Self.probes(in: edit).first)
            #expect(textRequest.textTrackID == 1)
            #expect(textRequest.url == base + path)
            let outcome: Result<MediaProbeResult, MediaLoadFailure>
            do throws(MediaLoadFailure) {
                outcome = .success(try await MediaFetcherTests.fetcher.probeTextTrack(url: textRequest.url))
            } catch {
                outcome = .failure(error)
            }
            let probed = device.engine.mediaProbed(textRequest.id, outcome: outcome, at: device.now)
            let status = try #require(device.engine.mediaStatus(at: device.now))
            #expect(status.playerState == .playing)
            let errors = probed.payloads(namespace: .media, type: "ERROR")
            if let errorCode {
                #expect(errors.count == 1)
                #expect(errors.first?["detailedErrorCode"]?.intValue == errorCode)
                #expect(status.activeTrackIDs == [])
            } else {
                #expect(errors.isEmpty)
                #expect(status.activeTrackIDs == [1])
            }
        }
    }

    /// A text track the LOAD activates is read once the media was: a bad one is reported.
    @Test func aTextTrackActiveFromTheLoadIsReadAfterTheMedia() async throws {
        try await MediaFetcherTests.withServer { base in
            var device = DeviceHarness { $0.mediaMode = .fetch }
            let transportID = device.startMediaApp()
            let load =
                #"{"type":"LOAD","requestId":7,"activeTrackIds":[3],"media":{"contentId":"\#(base)/start.mp4","contentType":"video/mp4","tracks":[{"trackId":3,"type":"TEXT","trackContentId":"\#(base)/captions.srt"}]}}"#
            let request = try #require(Self.probes(in: device.media(load, transportID: transportID)).first)
            #expect(request.textTrackID == nil)
            let probed = await Self.runProbe(request, on: &device)
            let textRequest = try #require(Self.probes(in: probed).first)
            #expect(textRequest.textTrackID == 3)
            let outcome: Result<MediaProbeResult, MediaLoadFailure>
            do throws(MediaLoadFailure) {
                outcome = .success(try await MediaFetcherTests.fetcher.probeTextTrack(url: textRequest.url))
            } catch {
                outcome = .failure(error)
            }
            let failed = device.engine.mediaProbed(textRequest.id, outcome: outcome, at: device.now)
            #expect(failed.payloads(namespace: .media, type: "ERROR").first?["detailedErrorCode"]?.intValue == 600)
        }
    }

    /// The device follows a live stream only while its item lasts: STOP ends it, and an end
    /// of stream reported afterwards changes nothing.
    @Test func followingAStreamEndsWithTheItem() throws {
        var device = DeviceHarness { $0.mediaMode = .fetch }
        let transportID = device.startMediaApp()
        let load = device.media(
            Self.load("http://127.0.0.1:9/live", contentType: "video/x-matroska"),
            transportID: transportID
        )
        let request = try #require(Self.probes(in: load).first)
        var live = MediaProbeResult(isLive: true, tracks: [.init(kind: .video, number: 1)])
        live.followURL = request.url
        _ = device.engine.mediaProbed(request.id, outcome: .success(live), at: device.now)
        device.advance(by: .seconds(1))
        #expect(device.engine.isFollowingStream(request.id))
        #expect(!device.engine.isFollowingStream(request.id &+ 1))
        let sessionID = try #require(device.engine.mediaStatus(at: device.now)?.mediaSessionID)
        device.media(#"{"type":"STOP","requestId":9,"mediaSessionId":\#(sessionID)}"#, transportID: transportID)
        #expect(!device.engine.isFollowingStream(request.id))
        let ended = device.engine.mediaStreamEnded(request.id, mediaSeconds: 5, at: device.now)
        #expect(ended.payloads(namespace: .media).isEmpty)
        #expect(device.engine.mediaStatus(at: device.now)?.idleReason == .cancelled)
    }

    /// An end of stream learned after the clock passed it (the read's last bytes came late,
    /// on a loaded machine) finishes the item at the media's end, not at the later clock.
    @Test func aStreamEndLearnedLateFinishesAtTheMediasEnd() throws {
        var device = DeviceHarness { $0.mediaMode = .fetch }
        let transportID = device.startMediaApp()
        let load = device.media(
            Self.load("http://127.0.0.1:9/live", contentType: "video/x-matroska"),
            transportID: transportID
        )
        let request = try #require(Self.probes(in: load).first)
        var live = MediaProbeResult(isLive: true, tracks: [.init(kind: .video, number: 1)])
        live.followURL = request.url
        _ = device.engine.mediaProbed(request.id, outcome: .success(live), at: device.now)
        device.advance(by: .seconds(4))
        #expect((device.engine.mediaStatus(at: device.now)?.currentTime ?? 0) > 3)
        var outputs = device.engine.mediaStreamEnded(request.id, mediaSeconds: 2.94, at: device.now)
        outputs += device.advance(by: .milliseconds(1))
        let finished = try #require(outputs.payloads(namespace: .media, type: "MEDIA_STATUS").last?["status"]?[0])
        #expect(finished["idleReason"] == "FINISHED")
        #expect(finished["currentTime"]?.doubleValue == 2.94)
    }

    @Test func aNewerLoadSupersedesAPendingProbe() async throws {
        try await MediaFetcherTests.withServer { base in
            var device = DeviceHarness { $0.mediaMode = .fetch }
            let transportID = device.startMediaApp()
            let first = device.media(Self.load(base + "/missing.mp4", requestID: 1), transportID: transportID)
            let second = device.media(Self.load(base + "/end.mp4", requestID: 2), transportID: transportID)
            #expect(second.payloads(namespace: .media, type: "LOAD_CANCELLED").first?["requestId"] == 1)
            let stale = await Self.runProbe(try #require(Self.probes(in: first).first), on: &device)
            #expect(stale.payloads(namespace: .media).isEmpty, "the stale probe's failure is ignored")
            var done = await Self.runProbe(try #require(Self.probes(in: second).first), on: &device)
            done += device.advance(by: .milliseconds(200))
            #expect(done.payloads(namespace: .media, type: "MEDIA_STATUS").contains { $0["requestId"] == 2 })
            #expect(device.engine.mediaStatus(at: device.now)?.media?.duration == 8)
        }
    }

    @Test func simulateNeverAsksForAProbe() async throws {
        var device = DeviceHarness()
        #expect(device.engine.configuration.mediaMode == .simulate, "the library default")
        let transportID = device.startMediaApp()
        let load = device.media(Self.load("http://127.0.0.1:1/clip.mp4"), transportID: transportID)
        #expect(Self.probes(in: load).isEmpty)
        #expect(
            load.payloads(namespace: .media, type: "MEDIA_STATUS").first?["status"]?[0]?["playerState"] == "BUFFERING"
        )
    }
}
