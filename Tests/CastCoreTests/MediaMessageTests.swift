import Testing

@testable import CastCore

@Suite struct MediaMessageTests {
    @Test(arguments: MessageFixtures.media)
    func roundTrip(payload: String) throws {
        let message = try MediaMessage(jsonString: payload)
        #expect(message.type.rawValue == (try payloadType(payload)))
        let typed = try #require(message.message, "\(payload) decoded as unknown")
        try expectRoundTrip(typed, payload: payload)
        #expect(try MediaMessage(jsonString: message.jsonString()) == message)
    }

    @Test func coversEveryMediaMessageType() throws {
        let types = Set(try MessageFixtures.media.map { try MediaMessage(jsonString: $0).type })
        let expected: Set<CastMessageType> = [
            .load, .play, .pause, .stop, .seek, .setPlaybackRate, .setVolume, .getStatus, .editTracksInfo,
            .queueLoad, .queueInsert, .queueRemove, .queueReorder, .queueUpdate, .queueNext, .queuePrev,
            .queueGetItemIDs, .queueGetItems, .queueGetItemRange, .skipAd, .userAction, .mediaStatus, .loadFailed,
            .loadCancelled, .invalidPlayerState, .invalidRequest, .error, .queueItemIDs, .queueItems, .queueChange,
        ]
        #expect(types == expected)
    }

    @Test func realisticMediaStatus() throws {
        guard case .mediaStatus(let message) = try MediaMessage(jsonString: mediaStatusFixture) else {
            Issue.record("not a MEDIA_STATUS")
            return
        }
        #expect(message.requestID == 7)
        let status = try #require(message.status.first)
        #expect(status.mediaSessionID == 1)
        #expect(status.playerState == .playing)
        #expect(status.currentTime == 123.456)
        #expect(status.supportedMediaCommands == .allBasicMedia)
        #expect(status.volume == Volume(level: 1, muted: false))
        #expect(status.currentItemID == 2)
        #expect(status.repeatMode == .off)
        #expect(status.items?.map(\.itemID) == [1, 2, 3])
        #expect(status.items?[0].media?.duration == 653.8)
        #expect(
            status.breakStatus
                == AdBreakStatus(
                    breakID: "b1",
                    breakClipID: "bc1",
                    currentBreakTime: 3.2,
                    currentBreakClipTime: 3.2,
                    whenSkippable: 5
                )
        )
        #expect(status.customData?["playerVersion"] == "3.0.0")

        let media = try #require(status.media)
        #expect(media.streamType == .buffered)
        #expect(media.contentType == "application/x-mpegURL")
        #expect(media.duration == 596.474195)
        #expect(media.metadata?.metadataType == .movie)
        #expect(media.metadata?.title == "Big Buck Bunny")
        #expect(media.metadata?.studio == "Blender Foundation")
        #expect(media.metadata?.images.count == 2)
        #expect(media.metadata?.images.first?.width == 480)
        #expect(media.tracks?.map(\.type) == [.text, .audio])
        #expect(media.tracks?.first?.subtype == .subtitles)
        #expect(media.breaks?.first?.breakClipIDs == ["bc1"])
        #expect(media.breakClips?.first?.whenSkippable == 5)
    }

    @Test func bothEncodingPathsWriteTheSameBytes() throws {
        for payload in [mediaStatusFixture, MessageFixtures.cafLoad, MessageFixtures.pychromecastLoad] {
            let message = try #require(try MediaMessage(jsonString: payload).message)
            #expect(try message.jsonBytes() == message.jsonBytes(usesTokenEncodable: false))
        }
        let status = try MediaStatusMessage(jsonString: mediaStatusFixture)
        var encodable = JSONPayloadEncoder()
        encodable.usesTokenEncodable = false
        #expect(try JSONPayloadEncoder().encode(status) == encodable.encode(status))
    }

    @Test func pychromecastLoad() throws {
        guard case .load(let load) = try MediaMessage(jsonString: MessageFixtures.pychromecastLoad) else {
            Issue.record("not a LOAD")
            return
        }
        #expect(load.sessionID == "7E2FF513-CDF6-9A91-2B28-3E3DE7BAC174")
        #expect(load.data.autoplay == true)
        #expect(load.data.currentTime == 0)
        #expect(load.data.startTime == 0)
        #expect(load.data.customData == [:])
        #expect(load.data.media?.metadata?["thumb"] == "http://127.0.0.1:8000/sintel.jpg")
        #expect(
            load.data.media?.textTrackStyle?.backgroundColor == CastColor(red: 255, green: 255, blue: 255, alpha: 0)
        )
    }

    /// VLC 3's LOAD, as logged by the virtual device: `autoplay` is the string "false", which a
    /// receiver's JavaScript reads as truthy (it plays; VLC waits for PLAYING and sends no PLAY).
    @Test func vlcLoadWithStringAutoplay() throws {
        for (text, expected) in [
            ("\"false\"", true), ("\"true\"", true), ("\"yes\"", true), ("\"\"", false), ("false", false),
        ] {
            let payload =
                #"{"type":"LOAD","media":{"metadata":{ "metadataType":0,"title":"clip.mp4"},"contentId":"http://127.0.0.1:8010/chromecast/1/2/stream","streamType":"LIVE","contentType":"video/x-matroska"},"autoplay":"#
                + text + #","requestId":1}"#
            guard case .load(let load) = try MediaMessage(jsonString: payload) else {
                Issue.record("not a LOAD")
                return
            }
            #expect(load.data.autoplay == expected)
        }
        let other = #"{"type":"LOAD","media":{"contentId":"x"},"autoplay":7,"requestId":1}"#
        #expect(throws: (any Error).self) { try MediaMessage(jsonString: other) }
    }

    @Test func cattLoadWithNullStreamType() throws {
        let payload =
            #"{"type":"LOAD","media":{"contentId":"http://127.0.0.1:45000/?loaded_from_catt","streamType":null,"contentType":"video/mp4","metadata":{"title":"clip","metadataType":0}},"autoplay":true,"customData":{},"requestId":3}"#
        guard case .load(let load) = try MediaMessage(jsonString: payload) else {
            Issue.record("not a LOAD")
            return
        }
        #expect(load.data.media?.streamType == nil)
        #expect(try !load.jsonString().contains("streamType"))
    }

    @Test func sessionCommands() throws {
        #expect(
            try MediaSessionRequest.play(mediaSessionID: 1, requestID: 5).jsonString()
                == #"{"type":"PLAY","requestId":5,"mediaSessionId":1}"#
        )
        #expect(
            try MediaSessionRequest.queuePrev(mediaSessionID: 2).jsonString()
                == #"{"type":"QUEUE_PREV","mediaSessionId":2}"#
        )
        let seek = SeekRequest(requestID: 3, mediaSessionID: 1, currentTime: 30, resumeState: .playbackStart)
        #expect(
            try seek.jsonString()
                == #"{"type":"SEEK","requestId":3,"mediaSessionId":1,"currentTime":30.0,"resumeState":"PLAYBACK_START"}"#
        )
        #expect(try MediaMessage(jsonString: seek.jsonString()) == .seek(seek))
    }

    @Test func encodesLoadWithDataAtTopLevel() throws {
        let data = LoadRequestData(
            media: MediaInformation(contentID: "a.mp4", streamType: .buffered, contentType: "video/mp4"),
            autoplay: true
        )
        let encoded = try LoadRequest(requestID: 1, sessionID: "s", data: data).jsonString()
        #expect(
            encoded
                == #"{"type":"LOAD","requestId":1,"sessionId":"s","media":{"contentId":"a.mp4","streamType":"BUFFERED","contentType":"video/mp4"},"autoplay":true}"#
        )
    }

    @Test func unknownTypeIsKept() throws {
        let payload = #"{"type":"PRECACHE","requestId":4,"precacheData":"x"}"#
        let message = try MediaMessage(jsonString: payload)
        #expect(message == .unknown(UnknownMessage(type: "PRECACHE", payload: try JSONValue(parsing: payload))))
        #expect(message.requestID == 4)
    }

    @Test func unknownWireValuesAreKept() throws {
        let payload =
            #"{"type":"MEDIA_STATUS","status":[{"mediaSessionId":1,"playerState":"SCRUBBING","idleReason":"NEW_REASON","repeatMode":"REPEAT_SOMETIMES","supportedMediaCommands":8388608,"media":{"contentId":"x","streamType":"HYBRID","tracks":[{"trackId":1,"type":"HAPTIC"}]}}]}"#
        guard case .mediaStatus(let message) = try MediaMessage(jsonString: payload), let status = message.status.first
        else {
            Issue.record("not a MEDIA_STATUS")
            return
        }
        #expect(status.playerState == PlayerState(rawValue: "SCRUBBING"))
        #expect(status.idleReason?.rawValue == "NEW_REASON")
        #expect(status.repeatMode?.rawValue == "REPEAT_SOMETIMES")
        #expect(status.supportedMediaCommands == MediaCommands(rawValue: 1 << 23))
        #expect(status.media?.streamType?.rawValue == "HYBRID")
        #expect(status.media?.tracks?.first?.type.rawValue == "HAPTIC")
        try expectRoundTrip(message, payload: payload)
    }

    // MARK: Malformed input

    struct Malformed: Sendable, CustomTestStringConvertible {
        var payload: String
        var code: MessageDecodingError.Code
        var path: String
        var testDescription: String { payload }
    }

    static let malformed: [Malformed] = [
        Malformed(
            payload: #"{"type":"MEDIA_STATUS","status":[{"mediaSessionId":1,"currentTime":"abc"}]}"#,
            code: .wrongType,
            path: "status[0].currentTime"
        ),
        // A single status object is accepted (some receiver apps send one), so it needs its id.
        Malformed(
            payload: #"{"type":"MEDIA_STATUS","status":{}}"#,
            code: .missingField,
            path: "status.mediaSessionId"
        ),
        Malformed(payload: #"{"type":"MEDIA_STATUS","status":"x"}"#, code: .wrongType, path: "status"),
        Malformed(payload: #"{"type":"MEDIA_STATUS","status":[null]}"#, code: .wrongType, path: "status[0]"),
        Malformed(
            payload: #"{"type":"MEDIA_STATUS","requestId":"7","status":[]}"#,
            code: .wrongType,
            path: "requestId"
        ),
        Malformed(
            payload: #"{"type":"MEDIA_STATUS","status":[{"mediaSessionId":1,"volume":{"muted":"no"}}]}"#,
            code: .wrongType,
            path: "status[0].volume.muted"
        ),
        Malformed(
            payload: #"{"type":"MEDIA_STATUS","status":[{"mediaSessionId":1,"activeTrackIds":[1,"2"]}]}"#,
            code: .wrongType,
            path: "status[0].activeTrackIds[1]"
        ),
        Malformed(
            payload: #"{"type":"MEDIA_STATUS","status":[{"mediaSessionId":1,"playerState":3}]}"#,
            code: .wrongType,
            path: "status[0].playerState"
        ),
        Malformed(payload: #"{"type":"MEDIA_STATUS"}"#, code: .missingField, path: "status"),
        Malformed(payload: #"{"type":"MEDIA_STATUS","status":null}"#, code: .missingField, path: "status"),
        Malformed(
            payload: #"{"type":"MEDIA_STATUS","status":[{"playerState":"IDLE"}]}"#,
            code: .missingField,
            path: "status[0].mediaSessionId"
        ),
        Malformed(
            payload: #"{"type":"MEDIA_STATUS","status":[{"mediaSessionId":1.5}]}"#,
            code: .invalidValue,
            path: "status[0].mediaSessionId"
        ),
        Malformed(
            payload: #"{"type":"MEDIA_STATUS","status":[{"mediaSessionId":1e30}]}"#,
            code: .invalidValue,
            path: "status[0].mediaSessionId"
        ),
        Malformed(
            payload:
                #"{"type":"MEDIA_STATUS","status":[{"mediaSessionId":1,"items":[{"itemId":1},{"media":{"tracks":[{"trackId":1}]}}]}]}"#,
            code: .missingField,
            path: "status[0].items[1].media.tracks[0].type"
        ),
        Malformed(
            payload: #"{"type":"LOAD","media":{"contentId":"x","textTrackStyle":{"edgeColor":"red"}}}"#,
            code: .invalidValue,
            path: "media.textTrackStyle.edgeColor"
        ),
        Malformed(
            payload: #"{"type":"LOAD","media":{"metadata":{"images":[{"width":1}]}}}"#,
            code: .missingField,
            path: "media.metadata.images[0].url"
        ),
        Malformed(
            payload: #"{"type":"LOAD","media":{"metadata":{"metadataType":"movie"}}}"#,
            code: .wrongType,
            path: "media.metadata.metadataType"
        ),
        Malformed(
            payload: #"{"type":"SEEK","mediaSessionId":null,"currentTime":1}"#,
            code: .missingField,
            path: "mediaSessionId"
        ),
        Malformed(payload: #"{"type":"QUEUE_REMOVE","mediaSessionId":1}"#, code: .missingField, path: "itemIds"),
        Malformed(payload: #"{"type":"USER_ACTION","mediaSessionId":1}"#, code: .missingField, path: "userAction"),
        Malformed(payload: #"{"type":"QUEUE_CHANGE","changeType":["INSERT"]}"#, code: .wrongType, path: "changeType"),
        Malformed(payload: #"{"type":42}"#, code: .wrongType, path: "type"),
        Malformed(payload: #"{"status":[]}"#, code: .missingType, path: ""),
        Malformed(payload: #"[{"type":"PLAY"}]"#, code: .missingType, path: ""),
        Malformed(payload: #""MEDIA_STATUS""#, code: .missingType, path: ""),
        Malformed(payload: #"{"type":"MEDIA_STATUS","status":[]"#, code: .invalidJSON, path: ""),
    ]

    @Test(arguments: malformed)
    func malformedPayloadsNameThePath(_ entry: Malformed) throws {
        let error = try #require(decodingError { _ = try MediaMessage(jsonString: entry.payload) })
        #expect(error.code == entry.code, "\(error)")
        #expect(error.path == entry.path, "\(error)")
        #expect(!error.description.isEmpty)
    }

    @Test(arguments: malformed.filter { $0.code != .missingType && $0.code != .invalidJSON && $0.path != "type" })
    func codablePathReportsTheSameErrors(_ entry: Malformed) throws {
        let message = try MediaMessage.peekType(entry.payload)
        var codablePath = JSONPayloadDecoder()
        codablePath.usesTokenDecodable = false
        let error = try #require(decodingError { _ = try message.decode(entry.payload, with: codablePath) })
        #expect(error.code == entry.code, "\(error)")
        #expect(error.path == entry.path, "\(error)")
    }
}

extension MediaMessage {
    /// A decoder of the message type a payload names, for exercising the `Decodable` path.
    struct TypedDecode {
        var decode: (String, JSONPayloadDecoder) throws(MessageDecodingError) -> Void

        func decode(_ payload: String, with decoder: JSONPayloadDecoder) throws(MessageDecodingError) {
            try decode(payload, decoder)
        }
    }

    static func peekType(_ payload: String) throws -> TypedDecode {
        func typed<M: CastJSONMessage>(_ type: M.Type) -> TypedDecode {
            TypedDecode { payload, decoder throws(MessageDecodingError) in _ = try decoder.decode(M.self, from: payload)
            }
        }
        switch CastMessageType(rawValue: try payloadType(payload)) {
        case .mediaStatus: return typed(MediaStatusMessage.self)
        case .load: return typed(LoadRequest.self)
        case .seek: return typed(SeekRequest.self)
        case .queueRemove: return typed(QueueRemoveRequest.self)
        case .userAction: return typed(UserActionRequest.self)
        case .queueChange: return typed(QueueChangeMessage.self)
        default: throw MessageDecodingError(code: .missingType)
        }
    }
}
