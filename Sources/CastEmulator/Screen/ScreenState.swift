import CastCore
import CastTime

/// What a virtual device's screen shows at one instant, as the JSON its page reads: the
/// device's name, the running app, the volume and the media (title, artwork, player state,
/// position, live range, ad break, captions, the error of a failed load).
///
/// Positions are the values at the instant the state was taken; the page moves them on
/// with its own clock at `rate` while `state` is `PLAYING`. Two states are the same screen
/// when everything but the moving positions is equal and the player's timeline was not
/// rebased (a seek, a pause, a rate change): ``changeKey``.
struct ScreenState: Sendable, Equatable {
    /// The JSON sent to the page.
    var json: JSONValue
    /// Everything that, when changed, the page must hear of.
    var changeKey: JSONValue

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.changeKey == rhs.changeKey }

    /// The most Unicode scalars of a sender-supplied string the screen shows.
    static let maximumTextLength = 300
    /// The most characters of a URL the screen uses.
    static let maximumURLLength = 2048

    /// The screen of `engine` at `now`.
    init(engine: VirtualDeviceEngine, at now: DeviceInstant) {
        let identity = engine.configuration.identity
        var root: [String: JSONValue] = [
            "device": .string(Self.text(identity.friendlyName)),
            "model": .string(Self.text(identity.modelName)),
        ]
        var key: [String: JSONValue] = [:]
        if let app = engine.runningApplication {
            root["app"] = .object([
                "id": .string(Self.text(app.appID)),
                "name": .string(Self.text(app.displayName ?? app.appID)),
                "status": .string(Self.text(app.statusText ?? "")),
                "idleScreen": .bool(app.isIdleScreen ?? false),
            ])
        } else {
            root["app"] = .null
        }
        let volume = engine.receiverStatus.volume
        root["volume"] = .object([
            "level": .double(volume?.level ?? 1),
            "muted": .bool(volume?.muted ?? false),
        ])
        let session = engine.application?.player?.session
        if let status = engine.mediaStatus(at: now), let session {
            let (media, mediaKey) = Self.media(status, session: session)
            root["media"] = media
            key["media"] = mediaKey
        } else {
            root["media"] = .null
        }
        json = .object(root)
        var stable = root
        stable["media"] = key["media"] ?? .null
        changeKey = .object(stable)
    }

    private static func media(_ status: MediaStatus, session: MediaSession) -> (JSONValue, JSONValue) {
        let information = status.media
        let metadata = information?.metadata
        var media: [String: JSONValue] = [
            "sessionId": .integer(status.mediaSessionID),
            "title": .string(text(metadata?.title ?? "")),
            "subtitle": .string(text(metadata?.subtitle ?? metadata?.artist ?? metadata?.seriesTitle ?? "")),
            "state": .string(status.playerState?.rawValue ?? "IDLE"),
            "rate": .double(status.playbackRate ?? 1),
        ]
        if let extended = status.extendedStatus?.playerState.rawValue { media["extendedState"] = .string(extended) }
        if let reason = status.idleReason?.rawValue { media["idleReason"] = .string(reason) }
        let image = metadata?.images.first { isWebURL($0.url) }?.url
        media["image"] = image.map(JSONValue.string) ?? .null
        let url = information?.contentURL ?? information?.contentID ?? ""
        media["contentUrl"] = isWebURL(url) ? .string(url) : .null
        media["contentType"] = .string(text(information?.contentType ?? ""))
        let isImage = information?.unknownMembers["mediaCategory"]?.stringValue == "IMAGE"
        let contentType = (information?.contentType ?? "").lowercased()
        let category =
            isImage || contentType.hasPrefix("image/")
            ? "IMAGE" : contentType.hasPrefix("audio/") || metadata?.metadataType == .musicTrack ? "AUDIO" : "VIDEO"
        media["category"] = .string(category)
        media["duration"] = information?.duration.map(JSONValue.double) ?? .null
        media["live"] = .bool(information?.streamType == .live)
        if let range = status.liveSeekableRange, let start = range.start, let end = range.end {
            media["seekable"] = .object(["start": .double(start), "end": .double(end)])
        }
        if let failure = session.loadFailure, session.isIdle {
            media["error"] = .object([
                "code": .integer(failure.detailedErrorCode),
                "name": .string(failure.detailedErrorName),
                "reason": .string(text(failure.reason)),
            ])
        }
        if let breakStatus = status.breakStatus {
            let clip = information?.breakClips?.first { $0.id == breakStatus.breakClipID }
            var ad: [String: JSONValue] = [
                "title": .string(text(clip?.title ?? "")),
                "clipTime": .double(breakStatus.currentBreakClipTime ?? 0),
                "duration": clip?.duration.map(JSONValue.double) ?? session.ad.map { .double($0.clipDuration) }
                    ?? .null,
                "whenSkippable": breakStatus.whenSkippable.map(JSONValue.double) ?? .null,
            ]
            if let playback = session.ad {
                ad["clip"] = .integer(playback.clipIndex + 1)
                ad["clips"] = .integer(playback.clips.count)
            }
            media["ad"] = .object(ad)
        }
        let textTracks = (information?.tracks ?? []).filter { $0.type == .text }
        if let track = textTracks.first(where: { (status.activeTrackIDs ?? []).contains($0.trackID) }) {
            let cues = captionWindow(session.textCues[track.trackID] ?? [], at: status.currentTime ?? 0).map { cue in
                JSONValue.array([
                    .double(cue.start), .double(cue.end), .string(text(cue.text, keepingLineBreaks: true)),
                ])
            }
            media["captions"] = .object([
                "trackId": .integer(track.trackID),
                "name": .string(text(track.name ?? track.language ?? "Captions")),
                "cues": .array(cues),
            ])
        }
        var stable = media
        // The positions move on by themselves; the timeline's anchor says when they jumped.
        media["position"] = .double(status.currentTime ?? 0)
        stable["anchor"] = .array([
            .integer(Int(session.anchor.offset / .milliseconds(1))), .double(session.position),
        ])
        if var ad = stable["ad"]?.objectValue {
            ad["clipTime"] = nil
            stable["ad"] = .object(ad)
        }
        if var range = stable["seekable"]?.objectValue {
            range["end"] = nil
            range["start"] = nil
            stable["seekable"] = .object(range)
        }
        return (.object(media), .object(stable))
    }

    /// The cues the page gets: those that end after a second before `position` and start
    /// within ``captionLookahead`` after it, at most ``maximumCues``. The device publishes the
    /// screen again every ``captionRefreshInterval`` while captions play, so the window
    /// follows the position; a track of any length costs the page a bounded state.
    static func captionWindow(_ cues: [WebVTTCue], at position: Double) -> [WebVTTCue] {
        var window: [WebVTTCue] = []
        for cue in cues where cue.end > position - 1 && cue.start < position + captionLookahead {
            window.append(cue)
            if window.count == maximumCues { break }
        }
        return window
    }

    /// How far ahead of the position the caption window reaches, in media seconds.
    static let captionLookahead = 60.0
    /// The most cues in the window.
    static let maximumCues = 32
    /// How often the screen is published again while captions play: well within the
    /// lookahead at the fastest rate (2×).
    static let captionRefreshInterval = Duration.seconds(20)

    /// Whether the state shows captions that move with playback (the device refreshes it).
    var needsRefresh: Bool {
        guard let media = json["media"], media["captions"] != nil else { return false }
        let state = media["state"]?.stringValue
        return state == "PLAYING" || state == "BUFFERING"
    }

    /// A sender-supplied string as the screen shows it: control characters (C0, DEL and C1,
    /// which a page shows as nothing and JSON spells in six bytes each) removed, cut to
    /// ``maximumTextLength`` Unicode scalars (1,200 bytes of UTF-8 at most). With the caption
    /// window and the URL checks, a state stays within about 64 KiB whatever a sender loads.
    /// - Parameter keepingLineBreaks: keeps LF (the lines of a cue).
    static func text(_ value: String, keepingLineBreaks: Bool = false) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            let control = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            if !control || (keepingLineBreaks && scalar == "\n") { scalars.append(scalar) }
        }
        // Cut by Unicode scalars, not characters: one character may hold any number of
        // combining marks.
        guard scalars.count > maximumTextLength else { return String(scalars) }
        return String(String.UnicodeScalarView(scalars.prefix(maximumTextLength))) + "…"
    }

    /// Whether `url` is an `http(s)` URL of a sane length: the only URLs the page loads.
    static func isWebURL(_ url: String) -> Bool {
        let lower = url.prefix(8).lowercased()
        return (lower.hasPrefix("http://") || lower.hasPrefix("https://")) && url.utf8.count <= maximumURLLength
            && url.unicodeScalars.allSatisfy {
                (0x21...0x7E).contains($0.value) && $0 != "\"" && $0 != "<" && $0 != ">"
            }
    }
}
