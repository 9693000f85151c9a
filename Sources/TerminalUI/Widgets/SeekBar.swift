/// A seek bar: a progress bar followed by the position and the duration,
/// as in `[=====>    ] 01:23 / 10:00`.
public struct SeekBar: Hashable, Sendable {
    /// The current position in seconds.
    public var position: Double
    /// The duration in seconds, or `nil` when unknown or live.
    public var duration: Double?
    /// How the bar part is drawn.
    public var style: ProgressBar.Style

    /// Creates a seek bar.
    public init(position: Double, duration: Double?, style: ProgressBar.Style = .ascii) {
        self.position = position
        self.duration = duration
        self.style = style
    }

    /// The fraction of the duration played (0 when the duration is unknown).
    public var fraction: Double {
        guard let duration, duration.isFinite, duration > 0, position.isFinite else { return 0 }
        return min(1, max(0, position / duration))
    }

    /// The seek bar as at most `width` columns: the bar takes what the times leave, and the bar
    /// is dropped when fewer than four columns would be left for it.
    public func render(width: Int) -> String {
        let times = TimeFormat.progress(position: position, duration: duration)
        let barWidth = width - TextLayout.width(of: times) - 1
        guard barWidth >= 4 else { return TextLayout.prefix(times, width: max(0, width)) }
        return ProgressBar(fraction: fraction, style: style).render(width: barWidth) + " " + times
    }
}
