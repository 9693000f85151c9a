// Fuzzes the virtual device's state machine, not a decoder: the input is a program of
// up to 32 valid-looking sender messages (LOAD with breaks, QUEUE_LOAD / INSERT / UPDATE / REMOVE /
// REORDER, SEEK, SET_PLAYBACK_RATE, volumes, tracks, PLAY / PAUSE / STOP / SKIP_AD, launches,
// reconnections), media probe outcomes and clock steps, every number drawn from the extremes a
// hostile sender uses (±0, ±1e300, 1e19, ±Int.max, huge arrays, big jumps, break clips).
//
// Properties: nothing traps; every message the device sends is JSON, and every MEDIA_STATUS
// decodes with finite times within the wire range, a finite rate, a volume level in 0...1 and
// a position within the duration of buffered media; the receiver volume stays in 0...1; the
// clock's deadlines always move forward; after the program the device still answers a
// GET_STATUS on the receiver and the media namespace.

@testable import CastCore
import CastTime
import FuzzSupport

@testable import CastEmulator

#if canImport(Glibc)
import Glibc
#endif

private let appIDs = ["CC1AD845", "E8C28D3C", "233637DE", "NOTANAPP"]

/// `FUZZ_TRACE=1` prints every message in and out, to read a crashing program.
private let tracing = getenv("FUZZ_TRACE") != nil

private func trace(_ text: @autoclosure () -> String) {
    guard tracing else { return }
    let line = text() + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
}

/// One sender's view of the device: the engine, the clock, the transport of the app.
private struct Session {
    var engine: VirtualDeviceEngine
    var now = DeviceInstant.zero
    var transportID = "receiver-0"
    var probes: [MediaProbeRequest] = []
    var requestID = 100
    var tickBudget = 300

    init(mediaMode: MediaMode, maximumQueueItems: Int) {
        var configuration = VirtualDeviceConfiguration(
            identity: DeviceIdentity(friendlyName: "Fuzz TV", deviceID: "0123456789abcdef0123456789abcdef"),
            randomSeed: 7
        )
        configuration.mediaMode = mediaMode
        configuration.maximumQueueItems = maximumQueueItems
        // Heartbeats are not what this target explores: one PING an hour keeps long clock
        // steps cheap (a PING every 5 s made an hour cost 720 exchanges).
        configuration.pingInterval = .seconds(3600)
        configuration.livenessTimeout = nil
        engine = VirtualDeviceEngine(configuration: configuration, at: .zero)
    }

    mutating func nextRequestID() -> Int {
        requestID += 1
        return requestID
    }

    @discardableResult
    mutating func send(_ json: String, namespace: CastNamespace, to destination: String) -> [DeviceAction] {
        // A message past the frame limit never reaches the engine: the framing refuses it.
        guard json.utf8.count <= DeviceMessageText.maximumMessageSize else { return [] }
        let message = CastMessage(sourceID: "sender-0", destinationID: destination, namespace: namespace, text: json)
        trace("\(now) -> \(json)")
        let actions = engine.received(message, from: 1, at: now)
        check(actions)
        return actions
    }

    mutating func media(_ json: String) { send(json, namespace: .media, to: transportID) }

    mutating func connect() {
        check(engine.connectionOpened(1, at: now))
        send(#"{"type":"CONNECT","origin":{},"userAgent":"fuzz"}"#, namespace: .connection, to: "receiver-0")
    }

    mutating func launch(_ appID: String) {
        let id = nextRequestID()
        let actions = send(
            #"{"type":"LAUNCH","appId":"\#(appID)","requestId":\#(id)}"#,
            namespace: .receiver,
            to: "receiver-0"
        )
        for payload in actions.payloads(namespace: .receiver) where payload["requestId"]?.intValue == id {
            if let transport = payload["status"]?["applications"]?[0]?["transportId"]?.stringValue {
                transportID = transport
            }
        }
        send(#"{"type":"CONNECT"}"#, namespace: .connection, to: transportID)
    }

    /// Moves the clock forward, ticking at every deadline on the way and answering PINGs.
    /// Steps stop early once the program has ticked 300 deadlines in all (a queue of 10 ms
    /// items repeating for an hour, each change a 64 KiB status, is legitimate work, but not
    /// this target's); a deadline that does not move past the previous one fails after 100
    /// repeats.
    mutating func advance(by duration: Duration) {
        let target = now + duration
        var previous: DeviceInstant?
        var repeats = 0
        while let deadline = engine.nextDeadline, deadline <= target {
            if let previous, deadline <= previous {
                repeats += 1
                FuzzProperty.require(repeats < 100, "deadlines do not move forward (stuck at \(deadline))")
            } else {
                repeats = 0
            }
            previous = deadline
            now = max(now, deadline)
            let actions = engine.tick(at: now)
            check(actions)
            answerPings(actions)
            tickBudget -= 1
            if tickBudget <= 0 { return }
        }
        now = target
        let actions = engine.tick(at: now)
        check(actions)
        answerPings(actions)
    }

    private mutating func answerPings(_ actions: [DeviceAction]) {
        for case .send(let message, let connection) in actions
        where message.namespace == .heartbeat && message.payloadUTF8?.contains("PING") == true {
            let pong = CastMessage(
                sourceID: message.destinationID,
                destinationID: message.sourceID,
                namespace: .heartbeat,
                text: #"{"type":"PONG"}"#
            )
            check(engine.received(pong, from: connection, at: now))
        }
    }

    /// The properties of everything the device asked for.
    mutating func check(_ actions: [DeviceAction]) {
        for action in actions {
            switch action {
            case .send(let message, _):
                guard let text = message.payloadUTF8 else { continue }
                trace("\(now) <- \(text)")
                if message.namespace == .media, text.hasPrefix(#"{"type":"MEDIA_STATUS""#) {
                    checkMediaStatus(text)  // decodes it: JSON and a valid status
                } else if (try? JSONValue(parsing: text)) == nil {
                    FuzzProperty.fail("the device sent a payload that is not JSON: \(text.prefix(300))")
                }
            case .probeMedia(let request):
                probes.append(request)
            default:
                break
            }
        }
        if let level = engine.receiverStatus.volume?.level {
            FuzzProperty.require((0...1).contains(level), "receiver volume level \(level) out of 0...1")
        }
    }

    private func checkMediaStatus(_ text: String) {
        guard case .mediaStatus(let message)? = try? MediaMessage(jsonString: text) else {
            FuzzProperty.fail("a MEDIA_STATUS the device sent does not decode: \(text.prefix(300))")
        }
        let range = -WireNumber.maximumSeconds...WireNumber.maximumSeconds
        for status in message.status {
            if let time = status.currentTime {
                FuzzProperty.require(range.contains(time), "currentTime \(time) out of the wire range")
                FuzzProperty.require(time >= 0, "negative currentTime \(time)")
                if let duration = status.media?.duration, status.media?.streamType != .live, duration > 0 {
                    FuzzProperty.require(time <= duration + 0.001, "currentTime \(time) past the duration \(duration)")
                }
            }
            if let duration = status.media?.duration {
                FuzzProperty.require(range.contains(duration), "media.duration \(duration) out of the wire range")
            }
            if let rate = status.playbackRate {
                FuzzProperty.require(rate.isFinite, "playbackRate \(rate) is not finite")
            }
            if let level = status.volume?.level {
                FuzzProperty.require((0...1).contains(level), "stream volume level \(level) out of 0...1")
            }
            if let clip = status.breakStatus?.currentBreakClipTime {
                FuzzProperty.require(range.contains(clip), "currentBreakClipTime \(clip) out of the wire range")
            }
            do {
                _ = try MediaStatusMessage(requestID: 0, status: [status]).jsonString()
            } catch {
                FuzzProperty.fail("a MEDIA_STATUS the device sent does not re-encode: \(error)")
            }
        }
    }
}

extension [DeviceAction] {
    fileprivate func payloads(namespace: CastNamespace) -> [JSONValue] {
        compactMap { action in
            guard case .send(let message, _) = action, message.namespace == namespace,
                let text = message.payloadUTF8
            else { return nil }
            return try? JSONValue(parsing: text)
        }
    }
}

// MARK: - Sender messages

private enum SenderText {
    static func number(_ bytes: inout FuzzBytes) -> String { bytes.numberLiteral() }
    static func integer(_ bytes: inout FuzzBytes) -> String { bytes.integerLiteral() }

    static func media(_ bytes: inout FuzzBytes) -> String {
        let streamType = bytes.pick(["BUFFERED", "LIVE", "NONE"])
        let url = bytes.pick(["http://m/1.mp4", "http://m/l.m3u8", "http://m/a.wav", "http://127.0.0.1:1/x.mp4"])
        var text = #"{"contentId":"\#(url)","streamType":"\#(streamType)","contentType":"video/mp4""#
        if bytes.bool() { text += #","duration":\#(number(&bytes))"# }
        if bytes.bool() {
            let clips = DeviceTextArray.make(&bytes) { bytes in
                #"{"id":"c\#(bytes.below(3))","duration":\#(number(&bytes)),"whenSkippable":\#(number(&bytes))}"#
            }
            let breaks = DeviceTextArray.make(&bytes) { bytes in
                #"{"id":"b\#(bytes.below(3))","position":\#(number(&bytes)),"breakClipIds":["c0","c1","c2"],"isWatched":\#(bytes.bool())}"#
            }
            text += #","breakClips":\#(clips),"breaks":\#(breaks)"#
        }
        if bytes.bool() {
            let tracks = DeviceTextArray.make(&bytes) { bytes in
                #"{"trackId":\#(integer(&bytes)),"type":"\#(bytes.pick(["TEXT", "AUDIO", "VIDEO"]))"}"#
            }
            text += #","tracks":\#(tracks)"#
        }
        return text + "}"
    }

    static func item(_ bytes: inout FuzzBytes) -> String {
        var text = #"{"media":\#(media(&bytes))"#
        if bytes.bool() { text += #","itemId":\#(integer(&bytes))"# }
        if bytes.bool() { text += #","startTime":\#(number(&bytes))"# }
        if bytes.bool() { text += #","playbackDuration":\#(number(&bytes))"# }
        if bytes.bool() { text += #","preloadTime":\#(number(&bytes))"# }
        if bytes.bool() { text += #","autoplay":\#(bytes.bool())"# }
        return text + "}"
    }

    static func items(_ bytes: inout FuzzBytes) -> String { DeviceTextArray.make(&bytes, item) }

    static func ids(_ bytes: inout FuzzBytes) -> String { DeviceTextArray.make(&bytes, integer) }

    static let repeatModes = ["REPEAT_OFF", "REPEAT_ALL", "REPEAT_SINGLE", "REPEAT_ALL_AND_SHUFFLE", "X"]
}

/// Arrays of `count()` elements; a huge one repeats a single element.
private enum DeviceTextArray {
    static func make(_ bytes: inout FuzzBytes, _ element: (inout FuzzBytes) -> String) -> String {
        let count = bytes.count()
        if count > 8 {
            // Within one frame, so nested huge arrays cannot multiply into gigabytes.
            let one = element(&bytes)
            let fitting = min(count, DeviceMessageText.maximumMessageSize / (one.utf8.count + 1))
            return "[" + Array(repeating: one, count: fitting).joined(separator: ",") + "]"
        }
        var parts: [String] = []
        for _ in 0..<count { parts.append(element(&bytes)) }
        return "[" + parts.joined(separator: ",") + "]"
    }
}

// MARK: - The program

private let steps: [Duration] = [
    .zero, .milliseconds(1), .milliseconds(250), .seconds(1), .seconds(5), .seconds(31), .seconds(600), .seconds(3600),
]

private func run(_ session: inout Session, _ bytes: inout FuzzBytes) {
    var operations = 0
    while !bytes.isAtEnd, operations < 32 {
        operations += 1
        let id = session.nextRequestID()
        let sessionID = session.engine.mediaStatus(at: session.now)?.mediaSessionID ?? 1
        let head = #""requestId":\#(id),"mediaSessionId":\#(bytes.bool() ? "\(sessionID)" : bytes.integerLiteral())"#
        switch bytes.below(20) {
        case 0:
            var text = #"{"type":"LOAD","requestId":\#(id),"media":\#(SenderText.media(&bytes))"#
            if bytes.bool() { text += #","currentTime":\#(bytes.numberLiteral())"# }
            if bytes.bool() { text += #","playbackRate":\#(bytes.numberLiteral())"# }
            if bytes.bool() { text += #","autoplay":\#(bytes.bool())"# }
            if bytes.bool() { text += #","activeTrackIds":\#(SenderText.ids(&bytes))"# }
            session.media(text + "}")
        case 1:
            var text = #"{"type":"QUEUE_LOAD","requestId":\#(id),"items":\#(SenderText.items(&bytes))"#
            if bytes.bool() { text += #","startIndex":\#(bytes.integerLiteral())"# }
            if bytes.bool() { text += #","repeatMode":"\#(bytes.pick(SenderText.repeatModes))""# }
            if bytes.bool() { text += #","currentTime":\#(bytes.numberLiteral())"# }
            session.media(text + "}")
        case 2:
            var text = #"{"type":"QUEUE_INSERT",\#(head),"items":\#(SenderText.items(&bytes))"#
            if bytes.bool() { text += #","insertBefore":\#(bytes.integerLiteral())"# }
            if bytes.bool() { text += #","currentItemIndex":\#(bytes.integerLiteral())"# }
            if bytes.bool() { text += #","currentItemId":\#(bytes.integerLiteral())"# }
            if bytes.bool() { text += #","currentTime":\#(bytes.numberLiteral())"# }
            session.media(text + "}")
        case 3:
            var text = #"{"type":"QUEUE_UPDATE",\#(head)"#
            if bytes.bool() { text += #","jump":\#(bytes.integerLiteral())"# }
            if bytes.bool() { text += #","currentItemId":\#(bytes.integerLiteral())"# }
            if bytes.bool() { text += #","currentTime":\#(bytes.numberLiteral())"# }
            if bytes.bool() { text += #","repeatMode":"\#(bytes.pick(SenderText.repeatModes))""# }
            if bytes.bool() { text += #","shuffle":\#(bytes.bool())"# }
            if bytes.bool() { text += #","items":\#(SenderText.items(&bytes))"# }
            session.media(text + "}")
        case 4:
            var text = #"{"type":"QUEUE_REMOVE",\#(head),"itemIds":\#(SenderText.ids(&bytes))"#
            if bytes.bool() { text += #","currentItemId":\#(bytes.integerLiteral())"# }
            session.media(text + "}")
        case 5:
            var text = #"{"type":"QUEUE_REORDER",\#(head),"itemIds":\#(SenderText.ids(&bytes))"#
            if bytes.bool() { text += #","insertBefore":\#(bytes.integerLiteral())"# }
            session.media(text + "}")
        case 6:
            let key = bytes.bool() ? "currentTime" : "relativeTime"
            var text = #"{"type":"SEEK",\#(head),"\#(key)":\#(bytes.numberLiteral())"#
            if bytes.bool() { text += #","resumeState":"\#(bytes.pick(["PLAYBACK_START", "PLAYBACK_PAUSE", "X"]))""# }
            session.media(text + "}")
        case 7:
            let key = bytes.bool() ? "playbackRate" : "relativePlaybackRate"
            session.media(#"{"type":"SET_PLAYBACK_RATE",\#(head),"\#(key)":\#(bytes.numberLiteral())}"#)
        case 8:
            let type = bytes.pick(["PLAY", "PAUSE", "STOP", "SKIP_AD", "QUEUE_NEXT", "QUEUE_PREV", "GET_STATUS"])
            session.media(#"{"type":"\#(type)",\#(head)}"#)
        case 9:
            session.media(
                #"{"type":"SET_VOLUME",\#(head),"volume":{"level":\#(bytes.numberLiteral()),"muted":\#(bytes.bool())}}"#
            )
        case 10:
            let volume =
                bytes.bool() ? #"{"level":\#(bytes.numberLiteral())}"# : #"{"muted":\#(bytes.bool())}"#
            session.send(
                #"{"type":"SET_VOLUME","requestId":\#(id),"volume":\#(volume)}"#,
                namespace: .receiver,
                to: "receiver-0"
            )
        case 11:
            var text = #"{"type":"EDIT_TRACKS_INFO",\#(head)"#
            if bytes.bool() { text += #","activeTrackIds":\#(SenderText.ids(&bytes))"# }
            if bytes.bool() { text += #","textTrackStyle":{"fontScale":\#(bytes.numberLiteral())}"# }
            session.media(text + "}")
        case 12:
            let ids = SenderText.ids(&bytes)
            let type = bytes.pick(["QUEUE_GET_ITEMS", "QUEUE_GET_ITEM_IDS", "QUEUE_GET_ITEM_RANGE"])
            session.media(
                #"{"type":"\#(type)",\#(head),"itemIds":\#(ids),"itemId":\#(bytes.integerLiteral()),"nextCount":\#(bytes.integerLiteral()),"prevCount":\#(bytes.integerLiteral())}"#
            )
        case 13:
            session.launch(bytes.pick(appIDs))
        case 14:
            let type = bytes.pick(["STOP", "GET_STATUS", "GET_APP_AVAILABILITY"])
            session.send(
                #"{"type":"\#(type)","requestId":\#(id),"sessionId":"\#(bytes.pick(["s", ""]))","appId":["CC1AD845"]}"#,
                namespace: .receiver,
                to: "receiver-0"
            )
        case 15:
            session.check(session.engine.connectionClosed(1, at: session.now))
            session.connect()
            session.send(#"{"type":"CONNECT"}"#, namespace: .connection, to: session.transportID)
        case 16:
            guard !session.probes.isEmpty else { continue }
            let request = session.probes.removeFirst()
            let outcome: Result<MediaProbeResult, MediaLoadFailure>
            switch bytes.below(4) {
            case 0: outcome = .failure(.mediaNetwork("fuzz"))
            case 1: outcome = .failure(MediaLoadFailure.mediaNetwork("unreachable").unreachable())
            default:
                var result = MediaProbeResult(
                    duration: bytes.bool() ? bytes.double() : nil,
                    isLive: bytes.below(4) == 0
                )
                for number in 0..<bytes.below(4) {
                    result.tracks.append(
                        .init(
                            kind: bytes.pick([.audio, .video, .text]),
                            number: number + 1,
                            width: Int(bytes.byte()) << 8 | Int(bytes.byte()),
                            height: Int(bytes.byte()) << 8 | Int(bytes.byte()),
                            language: nil
                        )
                    )
                }
                outcome = .success(result)
            }
            session.check(session.engine.mediaProbed(request.id, outcome: outcome, at: session.now))
        default:
            session.advance(by: bytes.pick(steps))
        }
    }
}

extension MediaLoadFailure {
    fileprivate func unreachable() -> Self {
        var failure = self
        failure.isUnreachable = true
        return failure
    }
}

/// The devices every program starts from, by media mode and queue limit: connected, with
/// the Default Media Receiver launched and its transport connected.
private let sessions: [[Session]] = [MediaMode.simulate, .auto, .fetch].map { mode in
    [1000, 3, 20_000].map { limit in
        var session = Session(mediaMode: mode, maximumQueueItems: limit)
        session.connect()
        session.launch("CC1AD845")
        return session
    }
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: FuzzArguments, _ argv: FuzzArguments) -> CInt {
    _ = sessions
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeviceEngine(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.run(start, count) { input in
        var bytes = FuzzBytes(input)
        // A copy of a device already connected with the media app running (the engine is a
        // value: copying it is cheap, connecting and launching for every input is not).
        var session = sessions[bytes.below(3)][bytes.below(3)]
        run(&session, &bytes)
        session.advance(by: .seconds(2))

        // The device still answers, on the platform and in the app.
        session.send(#"{"type":"CONNECT"}"#, namespace: .connection, to: "receiver-0")
        let receiver = session.send(#"{"type":"GET_STATUS","requestId":99999}"#, namespace: .receiver, to: "receiver-0")
        FuzzProperty.require(
            receiver.payloads(namespace: .receiver).contains { $0["requestId"]?.intValue == 99999 },
            "the device no longer answers GET_STATUS on the receiver namespace"
        )
        session.launch("CC1AD845")
        let media = session.send(
            #"{"type":"GET_STATUS","requestId":99998}"#,
            namespace: .media,
            to: session.transportID
        )
        FuzzProperty.require(
            media.payloads(namespace: .media).contains { $0["requestId"]?.intValue == 99998 },
            "the media app no longer answers GET_STATUS"
        )
    }
}
