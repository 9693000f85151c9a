import CastCore
import CastSender
import TerminalUI

/// The state `cast status` shows, as a JSON object and as text.
struct StatusReport {
    var deviceName: String?
    var host: String
    var port: Int
    var application: ReceiverApplication?
    var volume: Double?
    var muted: Bool?
    var media: MediaStatus?
    var position: Double?
    /// The group whose playback the device follows, when it is a member of a playing group.
    var following: FollowedGroup?

    init(session: CastSession) {
        deviceName = session.device.friendlyName
        host = session.host
        port = session.port
        application = session.applicationMetadata
        volume = session.currentDeviceVolume
        muted = session.currentDeviceMuted
        media = session.remoteMediaClient.mediaStatus
        position = media == nil ? nil : session.remoteMediaClient.approximateStreamPosition
    }

    /// A group member following its group's playback: the member's own app and volume, the
    /// group's media (`session` is the group's).
    init(
        member device: CastDevice,
        host: String,
        port: Int,
        status: ReceiverStatus,
        group: FollowedGroup,
        session: CastSession
    ) {
        self.init(session: session)
        deviceName = device.friendlyName
        self.host = host
        self.port = port
        application = GroupFollowing.follower(in: status)
        volume = status.volume?.level
        muted = status.volume?.muted
        following = group
    }

    init(idleDevice device: CastDevice, host: String, port: Int) {
        deviceName = device.friendlyName
        self.host = host
        self.port = port
    }

    /// The stable JSON shape documented in docs/cli.md.
    var json: [String: Any] {
        var object: [String: Any] = [
            "device": ["name": deviceName ?? NSNullValue.null, "host": host, "port": port] as [String: Any]
        ]
        if let application {
            object["app"] =
                [
                    "appId": application.appId,
                    "displayName": application.displayName ?? NSNullValue.null,
                    "sessionId": application.sessionId ?? NSNullValue.null,
                    "statusText": application.statusText ?? NSNullValue.null,
                ] as [String: Any]
        } else {
            object["app"] = NSNullValue.null
        }
        if let volume { object["volume"] = ["level": volume, "muted": muted ?? false] as [String: Any] }
        if let following {
            object["following"] =
                [
                    "name": following.name, "id": following.id ?? NSNullValue.null, "host": following.host,
                    "port": following.port,
                ] as [String: Any]
        }
        guard let media else {
            object["media"] = NSNullValue.null
            return object
        }
        var entry: [String: Any] = [
            "mediaSessionId": media.mediaSessionId,
            "playerState": media.playerState?.rawValue ?? "IDLE",
            "currentTime": position ?? media.currentTime ?? 0,
            "playbackRate": media.playbackRate ?? 1,
        ]
        entry["idleReason"] = media.idleReason?.rawValue ?? NSNullValue.null
        entry["contentId"] = media.media?.contentId ?? NSNullValue.null
        entry["contentType"] = media.media?.contentType ?? NSNullValue.null
        entry["duration"] = media.media?.duration ?? NSNullValue.null
        entry["title"] = media.media?.metadata?.title ?? NSNullValue.null
        entry["activeTrackIds"] = media.activeTrackIds ?? []
        entry["currentItemId"] = media.currentItemId ?? NSNullValue.null
        if let volume = media.volume {
            entry["volume"] = ["level": volume.level ?? 1, "muted": volume.muted ?? false] as [String: Any]
        }
        object["media"] = entry
        return object
    }

    /// Human-readable lines.
    func lines(output: OutputSink) -> [String] {
        var lines = [
            "Device:  \(TerminalText.sanitized(deviceName ?? "?")) (\(DeviceTarget.address(host: host, port: port)))"
        ]
        if let application {
            lines.append("App:     \(TerminalText.sanitized(application.displayName ?? application.appId))")
        } else {
            lines.append("App:     none (idle)")
        }
        if let following {
            lines.append(
                "Group:   following \(TerminalText.sanitized(following.name)) (\(DeviceTarget.address(host: following.host, port: following.port)))"
            )
        }
        if let volume {
            lines.append(
                "Volume:  \(WireNumber.clampedInteger(volume * 100, in: 0...100))%\(muted == true ? " (muted)" : "")"
            )
        }
        guard let media else { return lines }
        let state = media.playerState?.rawValue ?? "IDLE"
        lines.append("State:   \(output.bold(state))\(media.idleReason.map { " (\($0.rawValue))" } ?? "")")
        if let title = media.media?.metadata?.title { lines.append("Title:   \(TerminalText.sanitized(title))") }
        if let content = media.media?.contentId { lines.append("Media:   \(TerminalText.sanitized(content))") }
        lines.append("Time:    \(progressLine(width: 30))")
        if let rate = media.playbackRate, rate != 1 { lines.append("Rate:    \(rate)×") }
        return lines
    }

    /// `[#####-----] 01:23 / 10:00`.
    func progressLine(width: Int) -> String {
        let duration = media?.media?.duration
        let position = position ?? 0
        let fraction = duration.map { $0 > 0 ? min(1, max(0, position / $0)) : 0 } ?? 0
        return
            "\(ProgressBar(fraction: fraction).render(width: width)) \(TimeFormat.progress(position: position, duration: duration))"
    }
}

/// `NSNull` without importing Foundation into every caller.
enum NSNullValue {
    static var null: Any { FoundationNull.value }
}
