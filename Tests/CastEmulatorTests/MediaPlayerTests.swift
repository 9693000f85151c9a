import CastCore
import CastEmulator
import CastTime
import Testing

/// The media player through the engine: load, playback clock, commands and errors.
@Suite struct MediaPlayerTests {
    /// The LOAD pychromecast 14 sends for `play_media(url, "video/mp4")`.
    static let pychromecastLoad =
        #"{"media":{"contentId":"http://media.local/bbb.mp4","streamType":"BUFFERED","contentType":"video/mp4","metadata":{"title":"Big Buck Bunny","metadataType":0}},"type":"LOAD","autoplay":true,"customData":{},"requestId":5,"sessionId":"SESSION"}"#

    @Test func loadBuffersThenPlays() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let load = device.media(Self.pychromecastLoad, transportID: transportID)
        let buffering = try #require(load.payloads(namespace: .media, type: "MEDIA_STATUS").first)
        #expect(buffering["requestId"] == 0)
        let first = try #require(buffering["status"]?[0])
        #expect(first["mediaSessionId"] == 1)
        #expect(first["playerState"] == "BUFFERING")
        #expect(first["currentTime"] == 0)
        #expect(first["media"]?["contentId"] == "http://media.local/bbb.mp4")
        #expect(first["media"]?["duration"] == 600, "buffered media without a duration gets the default")
        #expect(device.engine.nextDeadline == .seconds(0.2))

        let done = device.advance(by: .milliseconds(200))
        let reply = try #require(done.payloads(namespace: .media, type: "MEDIA_STATUS").first)
        #expect(reply["requestId"] == 5, "the LOAD reply waits for buffering to end")
        let status = try #require(reply["status"]?[0])
        #expect(status["playerState"] == "PLAYING")
        #expect(status["mediaSessionId"] == 1)
        #expect(status["playbackRate"] == 1)
        #expect(status["supportedMediaCommands"] == 12303)
        #expect(status["volume"] == ["level": 1, "muted": false])
        #expect(status["currentItemId"] == 1)
        #expect(status["items"] == nil, "a one-item queue lists no items")
        #expect(status["repeatMode"] == "REPEAT_OFF")
        #expect(status["media"]?["metadata"]?["title"] == "Big Buck Bunny")
        #expect(done.sent.allSatisfy { $0.message.sourceID == transportID && $0.message.destinationID == "sender-0" })
    }

    @Test func mediaWithoutAStreamTypePlaysAsBuffered() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        device.media(
            #"{"type":"LOAD","requestId":5,"autoplay":true,"customData":{},"media":{"contentId":"http://127.0.0.1:45926/?loaded_from_catt","streamType":null,"contentType":"video/mp4","metadata":{"title":"clip","metadataType":0}}}"#,
            transportID: transportID
        )
        let status = try #require(device.engine.mediaStatus(at: device.now))
        #expect(status.media?.streamType == .buffered)
        #expect(status.media?.duration == 600)
    }

    @Test func loadWithoutAutoplayEndsPaused() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        device.media(
            #"{"type":"LOAD","requestId":2,"autoplay":false,"currentTime":12,"media":{"contentId":"http://m/a.mp4","duration":60}}"#,
            transportID: transportID
        )
        device.advance(by: .seconds(5))
        let status = try #require(device.engine.mediaStatus(at: device.now))
        #expect(status.playerState == .paused)
        #expect(status.currentTime == 12)
    }

    @Test func withoutBufferingTheLoadIsAnsweredAtOnce() throws {
        var device = DeviceHarness { $0.bufferingDelay = .zero }
        let transportID = device.startMediaApp()
        let load = device.media(Self.pychromecastLoad, transportID: transportID)
        let statuses = load.payloads(namespace: .media, type: "MEDIA_STATUS")
        #expect(statuses.map { $0["requestId"] } == [5])
        #expect(statuses.first?["status"]?[0]?["playerState"] == "PLAYING")
    }

    @Test(arguments: [(1.0, 10.0), (2.0, 20.0), (0.5, 5.0)])
    func positionAdvancesAtThePlaybackRate(rate: Double, expected: Double) throws {
        var device = DeviceHarness { $0.bufferingDelay = .zero }
        let transportID = device.startMediaApp()
        device.media(
            #"{"type":"LOAD","requestId":2,"playbackRate":\#(rate),"media":{"contentId":"http://m/a.mp4","duration":100}}"#,
            transportID: transportID
        )
        device.advance(by: .seconds(10))
        let status = try #require(device.engine.mediaStatus(at: device.now))
        #expect(status.playbackRate == rate)
        #expect(abs((status.currentTime ?? -1) - expected) < 1e-9)
    }

    @Test func pauseFreezesThePositionAndPlayResumes() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let sessionID = device.loadAndPlay(transportID: transportID)
        device.advance(by: .seconds(4))
        let pause = device.media(
            #"{"type":"PAUSE","requestId":7,"mediaSessionId":\#(sessionID)}"#,
            transportID: transportID
        )
        let paused = try #require(pause.payloads(namespace: .media).first)
        #expect(paused["requestId"] == 7)
        #expect(paused["status"]?[0]?["playerState"] == "PAUSED")
        #expect(paused["status"]?[0]?["currentTime"] == 4)
        #expect(device.engine.nextDeadline == device.now + .seconds(5), "only the heartbeat is scheduled while paused")
        device.advance(by: .seconds(3))
        #expect(device.engine.mediaStatus(at: device.now)?.currentTime == 4)
        let play = device.media(
            #"{"type":"PLAY","requestId":8,"mediaSessionId":\#(sessionID)}"#,
            transportID: transportID
        )
        #expect(play.payloads(namespace: .media).first?["status"]?[0]?["playerState"] == "PLAYING")
        device.advance(by: .seconds(2))
        #expect(device.engine.mediaStatus(at: device.now)?.currentTime == 6)
    }

    @Test func aStatusIntervalSendsStatusWhilePlayingOnly() throws {
        var device = DeviceHarness {
            $0.bufferingDelay = .zero
            $0.statusInterval = .seconds(1)
        }
        let transportID = device.startMediaApp()
        let sessionID = device.loadAndPlay(transportID: transportID, duration: 600)
        let playing = device.advance(by: .seconds(5))
        let statuses = playing.payloads(namespace: .media, type: "MEDIA_STATUS")
        #expect(statuses.count == 5, "one status a second")
        #expect(statuses.allSatisfy { $0["requestId"] == 0 && $0["status"]?[0]?["playerState"] == "PLAYING" })
        let times = statuses.compactMap { $0["status"]?[0]?["currentTime"]?.doubleValue }
        #expect(times.count == 5)
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 1) < 1e-9 }, "\(times)")

        device.media(#"{"type":"PAUSE","requestId":7,"mediaSessionId":\#(sessionID)}"#, transportID: transportID)
        let paused = device.advance(by: .seconds(5))
        #expect(paused.payloads(namespace: .media).isEmpty, "no status while paused")

        device.media(#"{"type":"PLAY","requestId":8,"mediaSessionId":\#(sessionID)}"#, transportID: transportID)
        let resumed = device.advance(by: .milliseconds(2500))
        #expect(resumed.payloads(namespace: .media, type: "MEDIA_STATUS").count == 2)
    }

    @Test func aLateTickSendsOneStatusNotABurst() throws {
        var device = DeviceHarness {
            $0.bufferingDelay = .zero
            $0.statusInterval = .seconds(1)
            $0.pingInterval = .zero
            $0.livenessTimeout = nil
        }
        let transportID = device.startMediaApp()
        _ = device.loadAndPlay(transportID: transportID, duration: 600)
        device.now = device.now + .seconds(10)
        let late = device.engine.tick(at: device.now)
        #expect(late.payloads(namespace: .media, type: "MEDIA_STATUS").count == 1)
        #expect(device.engine.nextDeadline == device.now + .seconds(1))
    }

    @Test func aSlightlyLateTickKeepsTheStatusRhythm() throws {
        var device = DeviceHarness {
            $0.bufferingDelay = .zero
            $0.statusInterval = .seconds(1)
            $0.pingInterval = .zero
            $0.livenessTimeout = nil
        }
        let transportID = device.startMediaApp()
        _ = device.loadAndPlay(transportID: transportID, duration: 600)
        let due = try #require(device.engine.nextDeadline)
        device.now = due + .milliseconds(30)
        let late = device.engine.tick(at: device.now)
        #expect(late.payloads(namespace: .media, type: "MEDIA_STATUS").count == 1)
        #expect(device.engine.nextDeadline == due + .seconds(1), "the lateness is not carried forward")
    }

    @Test func withoutAStatusIntervalPlaybackSendsNoStatus() {
        var device = DeviceHarness { $0.bufferingDelay = .zero }
        let transportID = device.startMediaApp()
        _ = device.loadAndPlay(transportID: transportID, duration: 600)
        #expect(device.advance(by: .seconds(10)).payloads(namespace: .media).isEmpty)
    }

    @Test func commandsThatChangeNothingAreAnsweredButNotBroadcast() {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        device.open(2)
        device.connectApp(transportID, on: 2)
        let sessionID = device.loadAndPlay(transportID: transportID)
        let play = device.media(
            #"{"type":"PLAY","requestId":9,"mediaSessionId":\#(sessionID)}"#,
            transportID: transportID
        )
        #expect(play.sent.map(\.connection) == [1])
    }

    @Test func stopEndsPlaybackAndRemovesTheQueue() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let sessionID = device.loadAndPlay(transportID: transportID)
        let stop = device.media(
            #"{"type":"STOP","requestId":9,"mediaSessionId":\#(sessionID)}"#,
            transportID: transportID
        )
        let status = try #require(stop.payloads(namespace: .media).first?["status"]?[0])
        #expect(status["playerState"] == "IDLE")
        #expect(status["idleReason"] == "CANCELLED")
        #expect(status["items"] == nil)
        #expect(status["media"] == nil)
        #expect(status["supportedMediaCommands"] == 0)
        let pause = device.media(
            #"{"type":"PAUSE","requestId":10,"mediaSessionId":\#(sessionID)}"#,
            transportID: transportID
        )
        #expect(pause.payloads(namespace: .media).first == ["type": "INVALID_PLAYER_STATE", "requestId": 10])
    }

    @Test func stopDuringBufferingCancelsTheLoad() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        device.media(Self.pychromecastLoad, transportID: transportID)
        let stop = device.media(#"{"type":"STOP","requestId":6,"mediaSessionId":1}"#, transportID: transportID)
        let payloads = stop.payloads(namespace: .media)
        #expect(payloads.first == ["type": "LOAD_CANCELLED", "requestId": 5, "itemId": 1])
        #expect(payloads.last?["requestId"] == 6)
        #expect(device.advance(by: .seconds(1)).payloads(namespace: .media).isEmpty)
    }

    @Test(arguments: [
        (#""currentTime":30"#, 30.0, "PLAYING"),
        (#""relativeTime":-4"#, 6.0, "PLAYING"),
        (#""relativeTime":25,"resumeState":"PLAYBACK_PAUSE""#, 35.0, "PAUSED"),
        (#""currentTime":-5"#, 0.0, "PLAYING"),
        (#""currentTime":4294967296"#, 100.0, "IDLE"),
    ])
    func seek(arguments: String, position: Double, state: String) throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let sessionID = device.loadAndPlay(transportID: transportID)
        device.advance(by: .seconds(10))
        let seek = device.media(
            #"{"type":"SEEK","requestId":11,"mediaSessionId":\#(sessionID),\#(arguments)}"#,
            transportID: transportID
        )
        let statuses = seek.payloads(namespace: .media, type: "MEDIA_STATUS")
        #expect(statuses.first?["requestId"] == 11)
        let last = try #require(device.engine.mediaStatus(at: device.now))
        #expect(last.currentTime == position)
        #expect(last.playerState?.rawValue == state)
    }

    @Test func seekWithoutATargetIsInvalid() {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let sessionID = device.loadAndPlay(transportID: transportID)
        let seek = device.media(
            #"{"type":"SEEK","requestId":3,"mediaSessionId":\#(sessionID)}"#,
            transportID: transportID
        )
        #expect(seek.payloads(namespace: .media).first?["reason"] == "INVALID_PARAMS")
    }

    @Test func playbackRateChangesAndLimits() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let sessionID = device.loadAndPlay(transportID: transportID)
        let set = device.media(
            #"{"type":"SET_PLAYBACK_RATE","requestId":3,"mediaSessionId":\#(sessionID),"playbackRate":1.5}"#,
            transportID: transportID
        )
        #expect(set.payloads(namespace: .media).first?["status"]?[0]?["playbackRate"] == 1.5)
        device.media(
            #"{"type":"SET_PLAYBACK_RATE","requestId":4,"mediaSessionId":\#(sessionID),"relativePlaybackRate":0.5}"#,
            transportID: transportID
        )
        #expect(device.engine.mediaStatus(at: device.now)?.playbackRate == 0.75)
        for invalid in [#""playbackRate":3"#, #""playbackRate":0.25"#, #""relativePlaybackRate":4"#, #""foo":1"#] {
            let refused = device.media(
                #"{"type":"SET_PLAYBACK_RATE","requestId":5,"mediaSessionId":\#(sessionID),\#(invalid)}"#,
                transportID: transportID
            )
            #expect(
                refused.payloads(namespace: .media).first == [
                    "type": "INVALID_REQUEST", "requestId": 5, "reason": "INVALID_PARAMS",
                ]
            )
        }
        #expect(device.engine.mediaStatus(at: device.now)?.playbackRate == 0.75)
    }

    @Test func streamVolume() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let sessionID = device.loadAndPlay(transportID: transportID)
        device.media(
            #"{"type":"SET_VOLUME","requestId":3,"mediaSessionId":\#(sessionID),"volume":{"level":0.25}}"#,
            transportID: transportID
        )
        device.media(
            #"{"type":"SET_VOLUME","requestId":4,"mediaSessionId":\#(sessionID),"volume":{"muted":true}}"#,
            transportID: transportID
        )
        #expect(device.engine.mediaStatus(at: device.now)?.volume == Volume(level: 0.25, muted: true))
        #expect(device.engine.receiverStatus.volume?.level == 1, "stream volume leaves device volume alone")
    }

    @Test(arguments: [
        (#"{"type":"PAUSE","requestId":3,"mediaSessionId":99}"#, "INVALID_MEDIA_SESSION_ID"),
        (#"{"type":"PAUSE","requestId":3}"#, "INVALID_MEDIA_SESSION_ID"),
        (#"{"type":"SEEK","requestId":3,"currentTime":1}"#, "INVALID_MEDIA_SESSION_ID"),
        (#"{"type":"DANCE","requestId":3,"mediaSessionId":1}"#, "INVALID_COMMAND"),
        (#"{"requestId":3}"#, "INVALID_COMMAND"),
        (#"{"type":"MEDIA_STATUS","requestId":3,"status":[]}"#, "INVALID_COMMAND"),
        (#"{"type":"LOAD","requestId":3}"#, "INVALID_PARAMS"),
        (#"{"type":"LOAD","requestId":3,"media":"nope"}"#, "INVALID_PARAMS"),
        (#"{"type":"USER_ACTION","requestId":3,"mediaSessionId":1,"userAction":"LIKE"}"#, "NOT_SUPPORTED"),
    ])
    func invalidRequests(request: String, reason: String) throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        _ = device.loadAndPlay(transportID: transportID)
        let actions = device.media(request, transportID: transportID)
        let reply = try #require(actions.payloads(namespace: .media).first)
        #expect(reply["type"] == "INVALID_REQUEST")
        #expect(reply["requestId"] == 3)
        #expect(reply["reason"]?.stringValue == reason)
        #expect(device.engine.mediaStatus(at: device.now)?.playerState == .playing)
    }

    @Test(arguments: [#"{"type":"PLAY""#, "null", "[]", "\"LOAD\""])
    func unparsableMediaPayloadsAreDropped(payload: String) {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let actions = device.media(payload, transportID: transportID)
        #expect(actions.sent.isEmpty)
        #expect(actions.logs.contains { $0.message == "malformed media request" })
    }

    @Test func commandsWhileIdleAreInvalidPlayerState() {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let sessionID = device.loadAndPlay(transportID: transportID)
        device.advance(by: .seconds(200))
        #expect(device.engine.mediaStatus(at: device.now)?.idleReason == .finished)
        for command in ["PLAY", "PAUSE", "STOP", "QUEUE_NEXT", "SKIP_AD"] {
            let reply = device.media(
                #"{"type":"\#(command)","requestId":4,"mediaSessionId":\#(sessionID)}"#,
                transportID: transportID
            )
            #expect(reply.payloads(namespace: .media).first == ["type": "INVALID_PLAYER_STATE", "requestId": 4])
        }
    }

    @Test func theEndOfTheMediaFinishesTheSession() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        _ = device.loadAndPlay(transportID: transportID, duration: 30)
        #expect(device.engine.nextDeadline == .seconds(5))
        let actions = device.advance(by: .seconds(31))
        let finished = try #require(actions.payloads(namespace: .media, type: "MEDIA_STATUS").last?["status"]?[0])
        #expect(finished["playerState"] == "IDLE")
        #expect(finished["idleReason"] == "FINISHED")
        #expect(finished["currentTime"] == 30)
        #expect(finished["requestId"] == nil)
        let getStatus = device.media(#"{"type":"GET_STATUS","requestId":9}"#, transportID: transportID)
        #expect(getStatus.payloads(namespace: .media).first?["status"]?[0]?["idleReason"] == "FINISHED")
    }

    @Test func liveMediaWithoutDurationNeverEnds() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        device.media(
            #"{"type":"LOAD","requestId":2,"media":{"contentId":"http://m/live.m3u8","streamType":"LIVE"}}"#,
            transportID: transportID
        )
        device.advance(by: .seconds(3600))
        let status = try #require(device.engine.mediaStatus(at: device.now))
        #expect(status.playerState == .playing)
        #expect(status.media?.duration == nil)
        #expect(abs((status.currentTime ?? 0) - 3599.8) < 1e-6)
    }

    @Test func liveMediaSeeksAnywhereExceptPastTheLiveEdge() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        device.media(
            #"{"type":"LOAD","requestId":2,"media":{"contentId":"http://m/live.m3u8","streamType":"LIVE"}}"#,
            transportID: transportID
        )
        device.advance(by: .seconds(10.2))
        device.media(#"{"type":"SEEK","requestId":3,"mediaSessionId":1,"currentTime":100}"#, transportID: transportID)
        #expect(device.engine.mediaStatus(at: device.now)?.currentTime == 100)
        device.media(
            #"{"type":"SEEK","requestId":4,"mediaSessionId":1,"currentTime":4294967296}"#,
            transportID: transportID
        )
        #expect(device.engine.mediaStatus(at: device.now)?.currentTime == 100)
    }

    @Test func aNewLoadInterruptsTheSession() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let first = device.loadAndPlay(transportID: transportID)
        device.advance(by: .seconds(3))
        let second = device.media(
            #"{"type":"LOAD","requestId":21,"media":{"contentId":"http://m/b.mp4"}}"#,
            transportID: transportID
        )
        let statuses = second.payloads(namespace: .media, type: "MEDIA_STATUS").compactMap { $0["status"]?[0] }
        #expect(statuses.count == 2)
        #expect(statuses[0]["mediaSessionId"]?.intValue == first)
        #expect(statuses[0]["playerState"] == "IDLE")
        #expect(statuses[0]["idleReason"] == "INTERRUPTED")
        #expect(statuses[1]["mediaSessionId"]?.intValue == first + 1)
        #expect(statuses[1]["playerState"] == "BUFFERING")
        let old = device.media(#"{"type":"PAUSE","requestId":22,"mediaSessionId":\#(first)}"#, transportID: transportID)
        #expect(old.payloads(namespace: .media).first?["reason"] == "INVALID_MEDIA_SESSION_ID")
    }

    @Test func aLoadDuringBufferingCancelsTheFirst() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        device.open(2)
        device.connectApp(transportID, on: 2, sender: "other")
        device.media(
            #"{"type":"LOAD","requestId":30,"media":{"contentId":"http://m/a.mp4"}}"#,
            transportID: transportID
        )
        let second = device.media(
            #"{"type":"LOAD","requestId":31,"media":{"contentId":"http://m/b.mp4"}}"#,
            transportID: transportID,
            on: 2,
            sender: "other"
        )
        let cancelled = try #require(second.sent(to: 1).first?.json)
        #expect(cancelled == ["type": "LOAD_CANCELLED", "requestId": 30, "itemId": 1])
        let done = device.advance(by: .milliseconds(200))
        #expect(done.sent(to: 2, sender: "other").first?.json?["requestId"] == 31)
        #expect(done.sent(to: 1).first?.json?["requestId"] == 0)
    }

    @Test func aRepeatedRequestIDDuringALoadIsADuplicate() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        device.media(
            #"{"type":"LOAD","requestId":40,"media":{"contentId":"http://m/a.mp4"}}"#,
            transportID: transportID
        )
        let duplicate = device.media(#"{"type":"GET_STATUS","requestId":40}"#, transportID: transportID)
        #expect(
            duplicate.payloads(namespace: .media).first == [
                "type": "INVALID_REQUEST", "requestId": 40, "reason": "DUPLICATE_REQUEST_ID",
            ]
        )
        let done = device.advance(by: .milliseconds(200))
        #expect(done.payloads(namespace: .media).first?["requestId"] == 40)
    }

    @Test(arguments: ["http://m/unloadable.mp4", "http://m/a.mp4#unloadable"])
    func unloadableContentFailsToLoad(url: String) throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let load = device.media(
            #"{"type":"LOAD","requestId":50,"media":{"contentId":"\#(url)"}}"#,
            transportID: transportID
        )
        let payloads = load.payloads(namespace: .media)
        #expect(payloads.first == ["type": "LOAD_FAILED", "requestId": 50, "itemId": 1, "detailedErrorCode": 104])
        let status = try #require(payloads.last?["status"]?[0])
        #expect(status["playerState"] == "IDLE")
        #expect(status["idleReason"] == "ERROR")
        #expect(device.engine.nextDeadline == .seconds(5))
    }

    @Test func failingTheNextLoadIsAOneShotFault() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        device.engine.faults.failsNextLoad = true
        let failed = device.media(Self.pychromecastLoad, transportID: transportID)
        #expect(failed.payloads(namespace: .media).first?["type"] == "LOAD_FAILED")
        #expect(failed.payloads(namespace: .media).first?["detailedErrorCode"] == 905)
        #expect(device.engine.faults.failsNextLoad == false)
        device.media(Self.pychromecastLoad, transportID: transportID)
        device.advance(by: .milliseconds(200))
        #expect(device.engine.mediaStatus(at: device.now)?.playerState == .playing)
    }

    @Test func statusesGoToTheRequesterAndEveryOtherSender() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        device.open(2)
        device.connectPlatform(2, sender: "client-2")
        device.connectApp(transportID, on: 2, sender: "client-2")
        device.connectApp(transportID, on: 1, sender: "sender-9")
        let sessionID = device.loadAndPlay(transportID: transportID)
        let pause = device.media(
            #"{"type":"PAUSE","requestId":60,"mediaSessionId":\#(sessionID)}"#,
            transportID: transportID
        )
        let recipients = pause.sent.map {
            "\($0.connection)/\($0.message.destinationID)=\($0.message.json?["requestId"] ?? nil)"
        }
        #expect(recipients == ["connection-1/sender-0=60", "connection-1/sender-9=0", "connection-2/client-2=0"])
        let other = device.media(
            #"{"type":"PLAY","requestId":3,"mediaSessionId":\#(sessionID)}"#,
            transportID: transportID,
            on: 2,
            sender: "client-2"
        )
        #expect(other.sent(to: 2, sender: "client-2").first?.json?["requestId"] == 3)
        #expect(other.sent(to: 1).first?.json?["requestId"] == 0)
    }

    @Test func editTracksInfo() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let tracks =
            #","tracks":[{"trackId":1,"type":"TEXT","language":"en-US","subtype":"SUBTITLES"},{"trackId":2,"type":"TEXT","language":"fr"},{"trackId":3,"type":"AUDIO","language":"en"}]"#
        device.media(
            #"{"type":"LOAD","requestId":2,"activeTrackIds":[3],"media":{"contentId":"http://m/a.mp4","duration":60\#(tracks)}}"#,
            transportID: transportID
        )
        device.advance(by: .milliseconds(200))
        #expect(device.engine.mediaStatus(at: device.now)?.activeTrackIDs == [3])
        func edit(_ body: String) -> [JSONValue] {
            device.media(
                #"{"type":"EDIT_TRACKS_INFO","requestId":5,"mediaSessionId":1,\#(body)}"#,
                transportID: transportID
            )
            .payloads(namespace: .media)
        }
        #expect(edit(#""activeTrackIds":[1,3]"#).first?["status"]?[0]?["activeTrackIds"] == [1, 3])
        #expect(edit(#""language":"fr""#).first?["status"]?[0]?["activeTrackIds"] == [3, 2])
        #expect(edit(#""language":"de""#).first?["reason"] == "LANGUAGE_NOT_SUPPORTED")
        #expect(edit(#""activeTrackIds":[7]"#).first?["reason"] == "INVALID_PARAMS")
        #expect(edit(#""enableTextTracks":false"#).first?["status"]?[0]?["activeTrackIds"] == [3])
        let styled = edit(##""textTrackStyle":{"fontScale":1.5,"foregroundColor":"#FFFF00FF"}"##)
        #expect(
            styled.first?["status"]?[0]?["media"]?["textTrackStyle"] == [
                "fontScale": 1.5, "foregroundColor": "#FFFF00FF",
            ]
        )
        #expect(edit(#""activeTrackIds":[]"#).first?["status"]?[0]?["activeTrackIds"] == [])
    }
}
