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
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "device": ["name": deviceName.jsonValue, "host": .string(host), "port": .integer(port)]
        ]
        object["app"] =
            application.map { application in
                [
                    "appId": .string(application.appID),
                    "displayName": application.displayName.jsonValue,
                    "sessionId": application.sessionID.jsonValue,
                    "statusText": application.statusText.jsonValue,
                ]
            } ?? .null
        if let volume { object["volume"] = ["level": volume.jsonValue, "muted": .bool(muted ?? false)] }
        if let following {
            object["following"] = [
                "name": .string(following.name), "id": following.id.jsonValue, "host": .string(following.host),
                "port": .integer(following.port),
            ]
        }
        guard let media else {
            object["media"] = .null
            return .object(object)
        }
        var entry: [String: JSONValue] = [
            "mediaSessionId": .integer(media.mediaSessionID),
            "playerState": .string(media.playerState?.rawValue ?? "IDLE"),
            "currentTime": (position ?? media.currentTime ?? 0).jsonValue,
            "playbackRate": (media.playbackRate ?? 1).jsonValue,
            "idleReason": media.idleReason?.rawValue.jsonValue ?? .null,
            "contentId": media.media?.contentID.jsonValue ?? .null,
            "contentType": media.media?.contentType.jsonValue ?? .null,
            "duration": media.media?.duration.jsonValue ?? .null,
            "title": media.media?.metadata?.title.jsonValue ?? .null,
            "activeTrackIds": (media.activeTrackIDs ?? []).jsonValue,
            "currentItemId": media.currentItemID.jsonValue,
        ]
        if let volume = media.volume {
            entry["volume"] = ["level": (volume.level ?? 1).jsonValue, "muted": .bool(volume.muted ?? false)]
        }
        object["media"] = .object(entry)
        return .object(object)
    }

    /// Human-readable lines (the player state in bold).
    func lines(output: OutputSink) -> [TerminalLine] {
        var lines: [TerminalLine] = [
            "Device:  \(TerminalText.sanitized(deviceName ?? "?")) (\(DeviceTarget.address(host: host, port: port)))"
        ]
        if let application {
            lines.append(
                TerminalLine("App:     \(TerminalText.sanitized(application.displayName ?? application.appID))")
            )
        } else {
            lines.append("App:     none (idle)")
        }
        if let following {
            lines.append(
                TerminalLine(
                    "Group:   following \(TerminalText.sanitized(following.name)) (\(DeviceTarget.address(host: following.host, port: following.port)))"
                )
            )
        }
        if let volume {
            var line =
                "Volume:  \(WireNumber.clampedInteger(volume * 100, in: 0...100))%\(muted == true ? " (muted)" : "")"
            // The stream's own volume (`cast volume --stream`), when the media reports one
            // other than full and unmuted: the device volume alone would hide it.
            if let stream = media?.volume, (stream.level ?? 1) != 1 || stream.muted == true {
                let level = WireNumber.clampedInteger((stream.level ?? 1) * 100, in: 0...100)
                line += " · stream \(level)%\(stream.muted == true ? " (muted)" : "")"
            }
            lines.append(TerminalLine(line))
        }
        guard let media else { return lines }
        let state = media.playerState?.rawValue ?? "IDLE"
        let reason = media.idleReason.map { " (\(TerminalText.sanitized($0.rawValue)))" } ?? ""
        lines.append("State:   " + .styled(TerminalText.sanitized(state), .bold) + TerminalLine(reason))
        if let title = media.media?.metadata?.title {
            lines.append(TerminalLine("Title:   \(TerminalText.sanitized(title))"))
        }
        if let content = media.media?.contentID {
            lines.append(TerminalLine("Media:   \(TerminalText.sanitized(content))"))
        }
        lines.append(TerminalLine("Time:    \(progressLine(width: 30))"))
        if let rate = media.playbackRate, rate != 1 { lines.append(TerminalLine("Rate:    \(rate)×")) }
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
