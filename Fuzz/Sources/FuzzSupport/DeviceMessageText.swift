/// Valid-looking messages a hostile device sends, as JSON text built from a fuzz program:
/// every member the SDK reads, each present or not, with extreme numbers, huge arrays and
/// strings holding terminal escape sequences.
public enum DeviceMessageText {
    /// Strings as JSON literals: plain, empty, terminal escapes (OSC title, clear screen,
    /// OSC 52 clipboard, C1 CSI), a bidi override, a long one.
    public static let strings = [
        #""TV""#, #""""#, #""\u001b]0;owned\u0007""#, #""\u001b[2JTitle""#, #""\u001b]52;c;eA==\u0007""#,
        #""\u009b31mred""#, #""a\u202eb""#, #""line\nbreak\r""#, "\"\(String(repeating: "x", count: 3000))\"",
        #""Big Buck Bunny""#, #""\u0000nul""#, #""\ud83c\udfac""#,
    ]

    static let playerStates = [#""IDLE""#, #""PLAYING""#, #""PAUSED""#, #""BUFFERING""#, #""LOADING""#, #""X""#]
    static let idleReasons = [#""FINISHED""#, #""CANCELLED""#, #""INTERRUPTED""#, #""ERROR""#, #""?""#]
    static let streamTypes = [#""BUFFERED""#, #""LIVE""#, #""NONE""#, #""OTHER""#]
    static let repeatModes = [
        #""REPEAT_OFF""#, #""REPEAT_ALL""#, #""REPEAT_SINGLE""#, #""REPEAT_ALL_AND_SHUFFLE""#, #""R""#,
    ]
    static let changeTypes = [#""INSERT""#, #""REMOVE""#, #""ITEMS_CHANGE""#, #""UPDATE""#, #""NO_CHANGE""#]

    /// A JSON object of the members whose presence bit is set in one byte per eight members.
    static func object(_ bytes: inout FuzzBytes, _ members: [(String, (inout FuzzBytes) -> String)]) -> String {
        var parts: [String] = []
        var mask: UInt8 = 0
        for (index, member) in members.enumerated() {
            if index % 8 == 0 { mask = bytes.byte() }
            guard mask & (1 << UInt8(index % 8)) != 0 else { continue }
            parts.append("\"\(member.0)\":\(member.1(&bytes))")
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// The largest Cast frame: a message past it never reaches a decoder.
    public static let maximumMessageSize = 65_536

    /// `text`, or an empty string when it is past the frame limit (no decoder sees it).
    public static func framed(_ text: String) -> String {
        text.utf8.count <= maximumMessageSize ? text : ""
    }

    /// A JSON array of `count()` elements.
    static func array(_ bytes: inout FuzzBytes, _ element: (inout FuzzBytes) -> String) -> String {
        let count = bytes.count()
        var parts: [String] = []
        if count > 8 {
            // A huge array repeats one element: its size matters, not its variety. It stays
            // within one frame, so nested huge arrays cannot multiply into gigabytes.
            let one = element(&bytes)
            for _ in 0..<min(count, maximumMessageSize / (one.utf8.count + 1)) { parts.append(one) }
        } else {
            for _ in 0..<count { parts.append(element(&bytes)) }
        }
        return "[" + parts.joined(separator: ",") + "]"
    }

    static func number(_ bytes: inout FuzzBytes) -> String { bytes.numberLiteral() }
    static func integer(_ bytes: inout FuzzBytes) -> String { bytes.integerLiteral() }
    static func string(_ bytes: inout FuzzBytes) -> String { bytes.pick(strings) }
    static func boolean(_ bytes: inout FuzzBytes) -> String { bytes.bool() ? "true" : "false" }

    /// A `MediaInformation` object.
    public static func media(_ bytes: inout FuzzBytes) -> String {
        object(
            &bytes,
            [
                ("contentId", { _ in #""http://m/1.mp4""# }),
                ("streamType", { $0.pick(streamTypes) }),
                ("duration", number),
                (
                    "metadata",
                    {
                        object(
                            &$0,
                            [
                                ("metadataType", integer), ("title", string), ("subtitle", string),
                                ("artist", string), ("images", { array(&$0) { "{\"url\":\(string(&$0))}" } }),
                            ]
                        )
                    }
                ),
                (
                    "tracks",
                    { array(&$0) { "{\"trackId\":\(integer(&$0)),\"type\":\"TEXT\",\"name\":\(string(&$0))}" } }
                ),
                (
                    "breakClips",
                    {
                        array(&$0) {
                            object(
                                &$0,
                                [
                                    ("id", { _ in #""c""# }), ("duration", number), ("whenSkippable", number),
                                    ("title", string),
                                ]
                            )
                        }
                    }
                ),
                (
                    "breaks",
                    {
                        array(&$0) {
                            "{\"id\":\"b\",\"position\":\(number(&$0)),\"breakClipIds\":[\"c\"],\"duration\":\(number(&$0))}"
                        }
                    }
                ),
                ("contentType", { _ in #""video/mp4""# }),
            ]
        )
    }

    /// A `QueueItem` object.
    public static func item(_ bytes: inout FuzzBytes) -> String {
        object(
            &bytes,
            [
                ("itemId", integer), ("media", media), ("startTime", number), ("preloadTime", number),
                ("playbackDuration", number), ("autoplay", boolean), ("activeTrackIds", { array(&$0, integer) }),
            ]
        )
    }

    /// One media status object.
    public static func mediaStatus(_ bytes: inout FuzzBytes) -> String {
        object(
            &bytes,
            [
                ("mediaSessionId", { $0.bool() ? "1" : integer(&$0) }),
                ("playerState", { $0.pick(playerStates) }),
                ("currentTime", number),
                ("playbackRate", number),
                ("media", media),
                ("idleReason", { $0.pick(idleReasons) }),
                ("supportedMediaCommands", integer),
                ("volume", { "{\"level\":\(number(&$0)),\"muted\":\(boolean(&$0))}" }),
                ("activeTrackIds", { array(&$0, integer) }),
                ("currentItemId", integer),
                ("loadingItemId", integer),
                ("preloadedItemId", integer),
                ("items", { array(&$0, item) }),
                ("repeatMode", { $0.pick(repeatModes) }),
                (
                    "breakStatus",
                    {
                        object(
                            &$0,
                            [
                                ("breakId", { _ in #""b""# }), ("breakClipId", { _ in #""c""# }),
                                ("currentBreakTime", number), ("currentBreakClipTime", number),
                                ("whenSkippable", number),
                            ]
                        )
                    }
                ),
                (
                    "liveSeekableRange",
                    {
                        object(
                            &$0,
                            [("start", number), ("end", number), ("isMovingWindow", boolean), ("isLiveDone", boolean)]
                        )
                    }
                ),
                ("extendedStatus", { "{\"playerState\":\"LOADING\",\"media\":\(media(&$0))}" }),
                ("videoInfo", { "{\"width\":\(integer(&$0)),\"height\":\(integer(&$0))}" }),
                ("queueData", { "{\"startIndex\":\(integer(&$0)),\"startTime\":\(number(&$0))}" }),
                ("sequenceNumber", integer),
            ]
        )
    }

    /// A MEDIA_STATUS message: no session, one status (most of the time) or several.
    public static func mediaStatusMessage(_ bytes: inout FuzzBytes) -> String {
        let statuses: String
        switch bytes.below(8) {
        case 0: statuses = "[]"
        case 1: statuses = array(&bytes, mediaStatus)
        default: statuses = "[" + mediaStatus(&bytes) + "]"
        }
        return "{\"type\":\"MEDIA_STATUS\",\"requestId\":\(integer(&bytes)),\"status\":\(statuses)}"
    }

    /// A RECEIVER_STATUS message.
    public static func receiverStatusMessage(_ bytes: inout FuzzBytes) -> String {
        let volume = object(
            &bytes,
            [
                ("level", number), ("muted", boolean), ("stepInterval", number),
                ("controlType", { $0.pick([#""attenuation""#, #""fixed""#, #""master""#]) }),
            ]
        )
        let application = object(
            &bytes,
            [
                ("appId", { $0.pick([#""CC1AD845""#, #""E8C28D3C""#, #""X""#]) }), ("displayName", string),
                ("sessionId", { $0.pick([#""s-1""#, #""s-2""#]) }), ("transportId", { _ in #""t-1""# }),
                ("statusText", string),
                ("namespaces", { array(&$0) { _ in #"{"name":"urn:x-cast:com.google.cast.media"}"# } }),
            ]
        )
        let applications = bytes.below(4) == 0 ? "[]" : "[\(application)]"
        return
            "{\"type\":\"RECEIVER_STATUS\",\"requestId\":\(integer(&bytes)),\"status\":{\"volume\":\(volume),\"applications\":\(applications)}}"
    }

    /// A queue message: item ids, items or a change.
    public static func queueMessage(_ bytes: inout FuzzBytes) -> String {
        switch bytes.below(3) {
        case 0:
            return
                "{\"type\":\"QUEUE_ITEM_IDS\",\"requestId\":\(integer(&bytes)),\"itemIds\":\(array(&bytes, integer))}"
        case 1:
            return "{\"type\":\"QUEUE_ITEMS\",\"requestId\":\(integer(&bytes)),\"items\":\(array(&bytes, item))}"
        default:
            return
                "{\"type\":\"QUEUE_CHANGE\",\"requestId\":0,\"changeType\":\(bytes.pick(changeTypes)),\"itemIds\":\(array(&bytes, integer)),\"insertBefore\":\(integer(&bytes))}"
        }
    }
}
