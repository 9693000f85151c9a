/// Formats media times as a player shows them.
public enum TimeFormat {
    /// A time as `mm:ss`, or `h:mm:ss` from one hour on (or when `includeHours` is true).
    ///
    /// Fractions of a second are dropped, negative times count as zero, and a time that is not
    /// finite (an unknown duration) is shown as `--:--`.
    public static func string(seconds: Double, includeHours: Bool = false) -> String {
        guard seconds.isFinite else { return "--:--" }
        let total = seconds <= 0 ? 0 : Int(min(seconds, 359_999_999).rounded(.down))
        let hours = total / 3600
        let minutes = total / 60 % 60
        let secs = total % 60
        if hours > 0 || includeHours {
            return "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))"
        }
        return "\(twoDigits(total / 60)):\(twoDigits(secs))"
    }

    /// A position and a duration formatted alike, as in `01:23 / 10:00` or `0:01:23 / 1:30:00`.
    ///
    /// A `nil`, infinite or non-positive duration (a live stream, or not known yet) is `--:--`.
    public static func progress(position: Double, duration: Double?) -> String {
        guard let duration, duration.isFinite, duration > 0 else {
            return "\(string(seconds: position)) / --:--"
        }
        let hours = duration >= 3600 || position >= 3600
        return "\(string(seconds: position, includeHours: hours)) / \(string(seconds: duration, includeHours: hours))"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
