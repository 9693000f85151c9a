import CastCore

/// `MEDIA_STATUS` within one frame, whatever a `LOAD` named.
///
/// A status echoes the media a sender loaded (its metadata, tracks, breaks, custom data) plus
/// what the device read from the media and the queue items around the current one. A frame
/// body holds at most 64 KiB, and a frame over it could only be dropped, leaving every sender
/// of the device without statuses. So every status the player sends is first measured and,
/// when its JSON is over ``MediaPlayer/maximumPayloadSize``, trimmed by this rule, one step
/// at a time until it fits, each step applied to the status's media and to the media of its
/// `extendedStatus`:
///
/// 1. the queue items (`items`; senders read them with `QUEUE_GET_ITEMS`);
/// 2. the tracks past the first 16, then every track;
/// 3. custom data (the status's and the media's);
/// 4. ad breaks and clips (`breaks`, `breakClips`, `vmapAdsRequest`);
/// 5. the metadata but its type and a title of at most 256 characters (images included);
/// 6. the media's members but `contentId`, `contentType`, `streamType` and `duration`;
/// 7. the media.
///
/// What is left (the session id, player state, position, volume, commands) is a few hundred
/// bytes. The status a sender reads keeps what a controller shows first; the device logs
/// the steps taken.
extension MediaPlayer {
    /// The largest JSON payload the player sends: the 64 KiB frame body less 4 KiB for the
    /// envelope (namespace, source and destination ids; sender ids are at most 256 bytes).
    static let maximumPayloadSize = 60 * 1024

    /// One step of the trimming rule: its name (for the log) and what it removes.
    struct StatusTrimming: Sendable {
        let name: String
        let apply: @Sendable (inout MediaStatus) -> Void
    }

    /// The rule's steps, in order.
    static let statusTrimmingSteps: [StatusTrimming] = [
        StatusTrimming(name: "queue items") { $0.items = nil },
        StatusTrimming(name: "tracks past the first 16") { status in
            changeMedia(&status) { media in
                if let tracks = media.tracks, tracks.count > 16 { media.tracks = Array(tracks.prefix(16)) }
            }
        },
        StatusTrimming(name: "tracks") { status in changeMedia(&status) { $0.tracks = nil } },
        StatusTrimming(name: "custom data") { status in
            status.customData = nil
            changeMedia(&status) { $0.customData = nil }
        },
        StatusTrimming(name: "ad breaks") { status in
            changeMedia(&status) { media in
                media.breaks = nil
                media.breakClips = nil
                media.vmapAdsRequest = nil
            }
        },
        StatusTrimming(name: "metadata") { status in
            changeMedia(&status) { media in
                guard let metadata = media.metadata else { return }
                var kept = MediaMetadata(metadataType: metadata.metadataType)
                kept.title = metadata.title.map { String($0.prefix(256)) }
                media.metadata = kept
            }
        },
        StatusTrimming(name: "media members") { status in
            changeMedia(&status) { media in
                media = MediaInformation(
                    contentID: media.contentID,
                    streamType: media.streamType,
                    contentType: media.contentType,
                    duration: media.duration
                )
            }
        },
        StatusTrimming(name: "media") { status in
            status.media = nil
            status.extendedStatus?.media = nil
        },
    ]

    /// Changes the media of `status` and of its extended status.
    private static func changeMedia(_ status: inout MediaStatus, _ body: (inout MediaInformation) -> Void) {
        if var media = status.media {
            body(&media)
            status.media = media
        }
        if var media = status.extendedStatus?.media {
            body(&media)
            status.extendedStatus?.media = media
        }
    }

    /// The `MEDIA_STATUS` at `now` as it is sent, encoded: its status trimmed by the rule
    /// when the message would be over ``maximumPayloadSize``.
    /// - Parameters:
    ///   - requestID: the request answered, 0 for a broadcast.
    ///   - reserve: bytes to keep free (a broadcast's request id is rewritten per recipient).
    /// - Returns: the payload and the names of the steps applied (empty when it fit).
    func fittedStatusMessage(
        requestID: Int,
        reserve: Int = 0,
        at now: DeviceInstant
    ) -> (payload: String, trimmed: [String]) {
        Self.fittedStatusMessage(statusList(at: now), requestID: requestID, reserve: reserve)
    }

    /// `list`'s `MEDIA_STATUS`, trimmed by the rule until it fits.
    static func fittedStatusMessage(
        _ list: [MediaStatus],
        requestID: Int,
        reserve: Int = 0
    ) -> (payload: String, trimmed: [String]) {
        var list = list
        var trimmed: [String] = []
        var steps = statusTrimmingSteps.makeIterator()
        while true {
            let payload = encode(MediaStatusMessage(requestID: requestID, status: list))
            guard payload.utf8.count + reserve > maximumPayloadSize, let step = steps.next() else {
                return (payload, trimmed)
            }
            for index in list.indices { step.apply(&list[index]) }
            trimmed.append(step.name)
        }
    }

    /// The log line for a status that had to be trimmed.
    static func trimmingLog(_ trimmed: [String]) -> MediaPlayerOutput? {
        guard !trimmed.isEmpty else { return nil }
        return .log(
            DeviceLogEntry(
                level: .warning,
                message: "media status over the frame size: trimmed",
                metadata: ["cast.trimmed": trimmed.joined(separator: ", ")]
            )
        )
    }
}
