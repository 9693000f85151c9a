import CastCore
import CastEmulator
import CastTime
import Testing

/// Numbers a hostile sender puts in media requests: the device answers `INVALID_PARAMS`, as a
/// receiver does, and keeps running instead of trapping on a conversion.
@Suite struct HostileNumberTests {
    static func load(duration: String, extra: String = "") -> String {
        #"{"type":"LOAD","requestId":2,"media":{"contentId":"http://m/1.mp4","streamType":"BUFFERED","duration":\#(duration)\#(extra)}}"#
    }

    static func reason(_ actions: [DeviceAction]) -> JSONValue? {
        actions.payloads(namespace: .media, type: "INVALID_REQUEST").first?["reason"]
    }

    /// The device still plays an ordinary LOAD after the hostile request.
    static func stillPlays(_ device: inout DeviceHarness, transportID: String) throws {
        device.media(MediaPlayerQueueTests.queueLoad(), transportID: transportID)
        device.advance(by: .seconds(5))
        let status = try #require(device.engine.mediaStatus(at: device.now))
        #expect(status.playerState == .playing)
    }

    @Test(arguments: ["1e300", "-1e300", "1e19", "10000000001"])
    func aLoadWithAnOutOfRangeDurationIsRefused(duration: String) throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let answer = device.media(Self.load(duration: duration), transportID: transportID)
        #expect(Self.reason(answer) == "INVALID_PARAMS")
        device.advance(by: .seconds(1))
        try Self.stillPlays(&device, transportID: transportID)
    }

    @Test func aBreakClipOfEndlessDurationIsRefused() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let breaks =
            #","breaks":[{"id":"b","position":0,"breakClipIds":["c"]}],"breakClips":[{"id":"c","duration":1e300}]"#
        let answer = device.media(Self.load(duration: "30", extra: breaks), transportID: transportID)
        #expect(Self.reason(answer) == "INVALID_PARAMS")
        device.advance(by: .seconds(1))
        try Self.stillPlays(&device, transportID: transportID)
    }

    @Test(arguments: ["9223372036854775807"])
    func aQueueJumpThatOverflowsIsRefused(jump: String) throws {
        var (device, transportID) = MediaPlayerQueueTests.playing(MediaPlayerQueueTests.queueLoad(startIndex: 1))
        let sessionID = try #require(device.engine.mediaStatus(at: device.now)?.mediaSessionID)
        let update = #"{"type":"QUEUE_UPDATE","requestId":7,"mediaSessionId":\#(sessionID),"jump":\#(jump)}"#
        let answer = device.media(update, transportID: transportID)
        #expect(Self.reason(answer) == "INVALID_PARAMS")
        #expect(device.engine.mediaStatus(at: device.now)?.currentItemID == 2)
        device.advance(by: .seconds(1))
    }

    @Test func aSeekFarBeyondAnyTimeIsRefused() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let live = #"{"type":"LOAD","requestId":2,"media":{"contentId":"http://m/l.m3u8","streamType":"LIVE"}}"#
        device.media(live, transportID: transportID)
        device.advance(by: .seconds(1))
        let sessionID = try #require(device.engine.mediaStatus(at: device.now)?.mediaSessionID)
        let seek = #"{"type":"SEEK","requestId":8,"mediaSessionId":\#(sessionID),"currentTime":1e300}"#
        #expect(Self.reason(device.media(seek, transportID: transportID)) == "INVALID_PARAMS")
        device.advance(by: .seconds(1))
        #expect(device.engine.mediaStatus(at: device.now)?.playerState == .playing)
    }

    /// Found by fuzz-device-engine: media shorter than the 10 ms minimum playing time ended
    /// with a position past its own duration (`currentTime` 0.01 for a duration of 5e-324).
    @Test(arguments: ["5e-324", "0", "0.004"])
    func aTinyItemNeverReportsAPositionPastItsDuration(duration: String) throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        var statuses = device.media(Self.load(duration: duration), transportID: transportID)
        statuses += device.advance(by: .seconds(1))
        let limit = try #require(Double(duration))
        let times = statuses.payloads(namespace: .media, type: "MEDIA_STATUS").compactMap {
            $0["status"]?[0]?["currentTime"]?.doubleValue
        }
        #expect(times.count >= 2)
        for time in times { #expect(time <= limit, "currentTime \(time) past the duration \(duration)") }
        let status = try #require(device.engine.mediaStatus(at: device.now))
        #expect(status.playerState == .idle && status.idleReason == .finished)
        try Self.stillPlays(&device, transportID: transportID)
    }

    /// Found by fuzz-device-engine: a live stream loaded at the largest accepted position
    /// (10^10 s) played on past the wire range, into positions no sender accepts.
    @Test func aLiveStreamAtTheEndOfTheWireRangeStaysInIt() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let load =
            #"{"type":"LOAD","requestId":2,"media":{"contentId":"http://m/l.m3u8","streamType":"LIVE"},"currentTime":1e10}"#
        device.media(load, transportID: transportID)
        device.advance(by: .seconds(30))
        let status = try #require(device.engine.mediaStatus(at: device.now))
        #expect(status.playerState == .playing)
        #expect(status.currentTime == WireNumber.maximumSeconds)
        let answer = device.media(#"{"type":"GET_STATUS","requestId":3}"#, transportID: transportID)
        let time = answer.payloads(namespace: .media, type: "MEDIA_STATUS").first?["status"]?[0]?["currentTime"]
        #expect(time?.doubleValue == WireNumber.maximumSeconds)
    }

    /// Found by fuzz-device-engine: QUEUE_LOAD's `currentTime` (the queue's start time) and
    /// the `currentTime` of QUEUE_INSERT, QUEUE_UPDATE, QUEUE_REMOVE and QUEUE_REORDER were not
    /// range-checked, so a live item started at 10^10 + 1 s.
    @Test(arguments: ["QUEUE_LOAD", "QUEUE_INSERT", "QUEUE_UPDATE", "QUEUE_REMOVE", "QUEUE_REORDER"])
    func aQueueRequestStartingPastTheWireRangeIsRefused(type: String) throws {
        var (device, transportID) = MediaPlayerQueueTests.playing(MediaPlayerQueueTests.queueLoad(startIndex: 1))
        let sessionID = try #require(device.engine.mediaStatus(at: device.now)?.mediaSessionID)
        let live = #"{"media":{"contentId":"http://m/l.m3u8","streamType":"LIVE"}}"#
        let members: String
        switch type {
        case "QUEUE_LOAD": members = #""items":[\#(live)]"#
        case "QUEUE_INSERT": members = #""items":[\#(live)],"currentItemIndex":0"#
        case "QUEUE_UPDATE": members = #""jump":1"#
        case "QUEUE_REMOVE": members = #""itemIds":[1],"currentItemId":3"#
        default: members = #""itemIds":[1],"currentItemId":1"#
        }
        let request =
            #"{"type":"\#(type)","requestId":7,"mediaSessionId":\#(sessionID),\#(members),"currentTime":10000000001}"#
        #expect(Self.reason(device.media(request, transportID: transportID)) == "INVALID_PARAMS")
        #expect(device.engine.mediaStatus(at: device.now)?.currentItemID == 2)
        device.advance(by: .seconds(1))
        let time = try #require(device.engine.mediaStatus(at: device.now)?.currentTime)
        #expect(time <= WireNumber.maximumSeconds)
    }

    /// A reproducible generator for the random sequences.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let extremes = [
        "0", "-0", "1", "-1", "0.5", "1e300", "-1e300", "1e19", "-1e19", "4294967296", "9223372036854775807",
        "-9223372036854775808", "1e-300", "30",
    ]

    /// One valid-looking media command with extreme numbers.
    static func randomCommand(session: Int, using generator: inout SplitMix) -> String {
        func number() -> String { extremes.randomElement(using: &generator)! }
        let id = Int.random(in: 1...1000, using: &generator)
        let head = #""requestId":\#(id),"mediaSessionId":\#(session)"#
        switch Int.random(in: 0..<9, using: &generator) {
        case 0:
            let clip = #"{"id":"c","duration":\#(number()),"whenSkippable":\#(number())}"#
            let media =
                #"{"contentId":"http://m/x.mp4","streamType":"BUFFERED","duration":\#(number()),"breaks":[{"id":"b","position":\#(number()),"breakClipIds":["c"]}],"breakClips":[\#(clip)]}"#
            return #"{"type":"LOAD","requestId":\#(id),"media":\#(media),"currentTime":\#(number())}"#
        case 1: return #"{"type":"SEEK",\#(head),"currentTime":\#(number())}"#
        case 2: return #"{"type":"SEEK",\#(head),"relativeTime":\#(number())}"#
        case 3: return #"{"type":"QUEUE_UPDATE",\#(head),"jump":\#(number())}"#
        case 4: return #"{"type":"SET_PLAYBACK_RATE",\#(head),"playbackRate":\#(number())}"#
        case 5:
            let item =
                #"{"media":{"contentId":"http://m/y.mp4","duration":\#(number())},"preloadTime":\#(number()),"startTime":\#(number())}"#
            return #"{"type":"QUEUE_INSERT",\#(head),"items":[\#(item)]}"#
        case 6: return #"{"type":"PLAY",\#(head)}"#
        case 7: return #"{"type":"PAUSE",\#(head)}"#
        default: return #"{"type":"QUEUE_NEXT",\#(head)}"#
        }
    }

    /// 300-message random sequences of media commands with extreme numbers leave the device
    /// running, its clock moving forward, and still answering.
    @Test(arguments: 0..<8)
    func randomCommandSequencesNeverStopTheDevice(seed: UInt64) throws {
        var generator = SplitMix(state: seed)
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        for _ in 0..<300 {
            let session = device.engine.mediaStatus(at: device.now)?.mediaSessionID ?? 1
            device.media(Self.randomCommand(session: session, using: &generator), transportID: transportID)
            device.advance(by: .milliseconds(Int64.random(in: 0...5000, using: &generator)))
        }
        let answer = device.media(#"{"type":"GET_STATUS","requestId":9999}"#, transportID: transportID)
        #expect(!answer.payloads(namespace: .media, type: "MEDIA_STATUS").isEmpty)
    }
}
