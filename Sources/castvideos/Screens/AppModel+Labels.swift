import CastCore
import CastSender
import CastSenderUI
import TerminalUI

/// The words, bars and styles the screens share.
extension AppModel {
    /// The icon and word for a device player state.
    func playerStateLabel(_ state: PlayerState?) -> (icon: String, text: String) {
        switch state {
        case .some(.playing): ("▶", "Playing")
        case .some(.paused): ("⏸", "Paused")
        case .some(.buffering), .some(.loading): ("◌", "Buffering")
        default: ("■", "Idle")
        }
    }

    /// The style of the player icons: the app's icon tint (the expanded controller's own tint
    /// there, when the style sets one).
    func iconStyle(expanded: Bool) -> TextStyle {
        let tint = expanded ? (styles.expandedIconTint ?? styles.iconTint) : styles.iconTint
        return TextStyle(foreground: tint, attributes: .bold)
    }

    /// What the chooser says of a device's speaker groups: ` (speaker group: Kitchen, Hall)`
    /// for a group (members when known), ` (in Downstairs)` for a member, nothing otherwise.
    /// The names are the devices' own, sanitized.
    static func groupNote(for device: DeviceChooserModel.Device) -> String {
        let names = { (names: [String]) in names.map { TerminalText.sanitized($0) }.joined(separator: ", ") }
        if device.isGroup {
            return device.members.isEmpty ? " (speaker group)" : " (speaker group: \(names(device.members)))"
        }
        return device.groups.isEmpty ? "" : " (in \(names(device.groups)))"
    }

    /// One line per member of a speaker group (`  1 Kitchen ▮▮▮▮▯▯▯▯▯▯ 40%`, `▸` on the
    /// member the volume keys act on), none for a single device.
    static func memberVolumeLines(_ state: GroupVolumeModel.State, selected: String? = nil) -> [String] {
        guard state.isGroup, !state.members.isEmpty else { return [] }
        let width = min(16, state.members.map { TextLayout.width(of: TerminalText.sanitized($0.name)) }.max() ?? 0)
        let keys = state.members.count > 1 ? "1-\(min(9, state.members.count))" : "1"
        let header = "Members (\(keys): choose, 0: the group; +/- m act on \(selected == nil ? "the group" : "it")):"
        return [header]
            + state.members.enumerated().map { index, member in
                let name = String(TerminalText.sanitized(member.name).prefix(width))
                let padded = name + String(repeating: " ", count: max(0, width - TextLayout.width(of: name)))
                let filled = Int((min(max(member.volume.level, 0), 1) * 10).rounded())
                let bar = String(repeating: "▮", count: filled) + String(repeating: "▯", count: 10 - filled)
                let marker = member.id == selected ? "▸" : " "
                let key = index < 9 ? "\(index + 1)" : " "
                return "\(marker)\(key) \(padded) \(bar) \(member.volume.percent)%"
                    + (member.volume.isMuted ? " (muted)" : "")
            }
    }

    /// The volume of the session's device (or the stream's on a fixed-volume device) as a
    /// bar and a percentage.
    static func volumeLine(_ device: DeviceVolumeState?, stream: StreamVolumeState?) -> String {
        func bar(_ level: Double) -> String {
            let filled = Int((min(max(level, 0), 1) * 10).rounded())
            return String(repeating: "▮", count: filled) + String(repeating: "▯", count: 10 - filled)
        }
        if let device, device.inputEnabled {
            return "Volume \(bar(device.level)) \(device.percent)%" + (device.isMuted ? " (muted)" : "") + "  +/- m"
        }
        if let device, device.isFixedVolume {
            if let stream, stream.canChangeLevel || stream.canMute {
                let percent = Int((stream.level * 100).rounded())
                return "Volume: fixed · stream \(bar(stream.level)) \(percent)%" + (stream.isMuted ? " (muted)" : "")
            }
            return "Volume: fixed by the device"
        }
        return "Volume: unknown"
    }
}
