import CastCore
import CastEmulator
import CastTime
import Testing

/// Ad breaks: pre-, mid- and post-rolls, skipping, and watched breaks.
@Suite struct MediaPlayerAdBreakTests {
    static let load =
        #"{"type":"LOAD","requestId":2,"media":{"contentId":"http://m/show.mp4","streamType":"BUFFERED","duration":60,"breakClips":[{"id":"c1","duration":10,"whenSkippable":5},{"id":"c2","duration":8},{"id":"c3","duration":6}],"breaks":[{"id":"pre","position":0,"breakClipIds":["c1"]},{"id":"mid","position":30,"breakClipIds":["c2","c3"]},{"id":"post","position":-1,"breakClipIds":["c3"]}]}}"#

    static func playing() -> (DeviceHarness, String) {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        device.media(load, transportID: transportID)
        device.advance(by: .milliseconds(200))
        return (device, transportID)
    }

    static func status(_ device: DeviceHarness) -> MediaStatus? {
        device.engine.mediaStatus(at: device.now)
    }

    @Test func aPreRollPlaysFirst() throws {
        var (device, _) = Self.playing()
        var status = try #require(Self.status(device))
        #expect(
            status.breakStatus
                == AdBreakStatus(
                    breakID: "pre",
                    breakClipID: "c1",
                    currentBreakTime: 0,
                    currentBreakClipTime: 0,
                    whenSkippable: 5
                )
        )
        #expect(status.currentTime == 0)
        #expect(status.supportedMediaCommands?.contains(.seek) == false)
        #expect(status.supportedMediaCommands?.contains(.skipAd) == false)
        device.advance(by: .seconds(3))
        status = try #require(Self.status(device))
        #expect(status.breakStatus?.currentBreakClipTime == 3)
        #expect(status.currentTime == 0)
        let skippable = device.advance(by: .seconds(2))
        let notice = try #require(skippable.payloads(namespace: .media, type: "MEDIA_STATUS").last?["status"]?[0])
        #expect(notice["breakStatus"]?["currentBreakClipTime"] == 5)
        #expect(notice["supportedMediaCommands"] == 12813, "SKIP_AD is offered once the clip is skippable")
        device.advance(by: .seconds(5))
        status = try #require(Self.status(device))
        #expect(status.breakStatus == nil)
        #expect(status.currentTime == 0)
        #expect(status.media?.breaks?.first { $0.id == "pre" }?.isWatched == true)
        #expect(status.media?.breaks?.first { $0.id == "mid" }?.isWatched == false)
        device.advance(by: .seconds(4))
        #expect(Self.status(device)?.currentTime == 4)
    }

    @Test func skipAdIsRefusedUntilTheClipIsSkippable() throws {
        var (device, transportID) = Self.playing()
        device.advance(by: .seconds(2))
        let early = device.media(#"{"type":"SKIP_AD","requestId":3,"mediaSessionId":1}"#, transportID: transportID)
        #expect(early.payloads(namespace: .media).first == ["type": "INVALID_PLAYER_STATE", "requestId": 3])
        device.advance(by: .seconds(3))
        let skip = device.media(#"{"type":"SKIP_AD","requestId":4,"mediaSessionId":1}"#, transportID: transportID)
        let status = try #require(skip.payloads(namespace: .media).first?["status"]?[0])
        #expect(skip.payloads(namespace: .media).first?["requestId"] == 4)
        #expect(status["breakStatus"] == nil)
        #expect(status["currentTime"] == 0)
        device.advance(by: .seconds(10))
        #expect(Self.status(device)?.currentTime == 10)
    }

    @Test func seekIsRefusedDuringAnAd() {
        var (device, transportID) = Self.playing()
        let seek = device.media(
            #"{"type":"SEEK","requestId":3,"mediaSessionId":1,"currentTime":20}"#,
            transportID: transportID
        )
        #expect(seek.payloads(namespace: .media).first == ["type": "INVALID_PLAYER_STATE", "requestId": 3])
    }

    @Test func aMidRollPlaysItsClipsAtItsPosition() throws {
        var (device, _) = Self.playing()
        device.advance(by: .seconds(40))
        var status = try #require(Self.status(device))
        #expect(status.currentTime == 30)
        #expect(status.breakStatus?.breakID == "mid")
        #expect(status.breakStatus?.breakClipID == "c2")
        #expect(status.breakStatus?.currentBreakClipTime == 0)
        device.advance(by: .seconds(10))
        status = try #require(Self.status(device))
        #expect(status.breakStatus?.breakClipID == "c3")
        #expect(status.breakStatus?.currentBreakTime == 10)
        #expect(status.breakStatus?.currentBreakClipTime == 2)
        #expect(status.breakStatus?.whenSkippable == nil)
        device.advance(by: .seconds(4))
        status = try #require(Self.status(device))
        #expect(status.breakStatus == nil)
        #expect(status.currentTime == 30)
    }

    @Test func watchedBreaksAreNotReplayedAfterSeekingBack() throws {
        var (device, transportID) = Self.playing()
        device.advance(by: .seconds(54))
        #expect(Self.status(device)?.breakStatus == nil)
        device.media(#"{"type":"SEEK","requestId":3,"mediaSessionId":1,"currentTime":25}"#, transportID: transportID)
        device.advance(by: .seconds(10))
        let status = try #require(Self.status(device))
        #expect(status.breakStatus == nil)
        #expect(status.currentTime == 35)
    }

    @Test func seekingOverABreakPlaysItThenResumesAtTheTarget() throws {
        var (device, transportID) = Self.playing()
        device.advance(by: .seconds(10))
        let seek = device.media(
            #"{"type":"SEEK","requestId":3,"mediaSessionId":1,"currentTime":45}"#,
            transportID: transportID
        )
        let status = try #require(seek.payloads(namespace: .media).first?["status"]?[0])
        #expect(status["breakStatus"]?["breakId"] == "mid")
        device.advance(by: .seconds(14))
        #expect(Self.status(device)?.breakStatus == nil)
        #expect(Self.status(device)?.currentTime == 45)
    }

    @Test func aPostRollPlaysAfterTheContentThenTheSessionFinishes() throws {
        var (device, _) = Self.playing()
        device.advance(by: .seconds(84))
        var status = try #require(Self.status(device))
        #expect(status.breakStatus?.breakID == "post")
        #expect(status.currentTime == 60)
        #expect(status.playerState == .playing)
        device.advance(by: .seconds(6))
        status = try #require(Self.status(device))
        #expect(status.playerState == .idle)
        #expect(status.idleReason == .finished)
    }

    @Test func breaksWithoutPlayableClipsAreSkipped() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        device.media(
            #"{"type":"LOAD","requestId":2,"media":{"contentId":"http://m/a.mp4","duration":20,"breakClips":[{"id":"zero","duration":0}],"breaks":[{"id":"b","position":5,"breakClipIds":["missing","zero"]}]}}"#,
            transportID: transportID
        )
        device.advance(by: .seconds(10.2))
        let status = try #require(Self.status(device))
        #expect(status.breakStatus == nil)
        #expect(status.currentTime == 10)
        #expect(status.media?.breaks?.first?.isWatched == true)
    }
}
