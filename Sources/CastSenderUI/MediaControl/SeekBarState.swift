import CastCore

/// The stream-position controls (as `GCKUIStreamPositionController` with its slider and labels).
public struct SeekBarState: Sendable, Hashable {
    /// The position in seconds, extrapolated at the last tick.
    public var position: Double
    /// The duration in seconds; for live streams the end of the seekable range; `nil` when unknown.
    public var duration: Double?
    /// Whether the stream is live.
    public var isLive: Bool
    /// The seekable range of a live stream, extrapolated.
    public var liveSeekableRange: ClosedRange<Double>?
    /// Whether seeking (slider and ±30 s) is possible now.
    public var isSeekable: Bool

    /// Creates a value.
    public init(
        position: Double,
        duration: Double?,
        isLive: Bool,
        liveSeekableRange: ClosedRange<Double>? = nil,
        isSeekable: Bool
    ) {
        self.position = position
        self.duration = duration
        self.isLive = isLive
        self.liveSeekableRange = liveSeekableRange
        self.isSeekable = isSeekable
    }

    /// The position as a fraction of the duration, 0 to 1; `nil` when the duration is unknown.
    public var progress: Double? {
        guard let duration, duration > 0 else { return nil }
        if let range = liveSeekableRange, range.upperBound > range.lowerBound {
            return min(1, max(0, (position - range.lowerBound) / (range.upperBound - range.lowerBound)))
        }
        return min(1, max(0, position / duration))
    }

    /// The position as text: `m:ss`, or `h:mm:ss` from an hour on.
    public var positionText: String { Self.format(position) }

    /// The duration as text, or `"--:--"` when unknown.
    public var durationText: String { duration.map(Self.format) ?? "--:--" }

    /// The time left as text with a leading minus, or `"--:--"` when unknown.
    public var remainingText: String {
        guard let duration else { return "--:--" }
        return "-" + Self.format(max(0, duration - position))
    }

    /// Formats seconds as `m:ss` or `h:mm:ss` (as `GCKUIUtils.timeIntervalAsString`).
    public static func format(_ seconds: Double) -> String {
        let total = seconds.isFinite ? WireNumber.clampedInteger(seconds.rounded(.down), in: 0...Int(Int32.max)) : 0
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }
}
