/// The playback-rate controller (as `GCKUIPlaybackRateController`): the receiver's rate, its
/// segment, and whether the control accepts input.
public struct PlaybackRateControllerState: Sendable, Hashable {
    /// The receiver's rate; `nil` without a media session.
    public var rate: Double?
    /// The segment the rate maps to; `nil` without a media session.
    public var segment: PlaybackRateSegment?
    /// `false` when there is no media session or the receiver does not support rate changes.
    public var inputEnabled: Bool

    /// Creates a value.
    public init(rate: Double?, inputEnabled: Bool) {
        self.rate = rate
        self.segment = rate.map(PlaybackRateSegment.init(rate:))
        self.inputEnabled = inputEnabled
    }
}
