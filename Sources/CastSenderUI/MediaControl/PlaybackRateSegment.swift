/// The segments of the sample playback-rate control: normal, half and double speed.
public enum PlaybackRateSegment: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 1.0×.
    case normal
    /// 0.5×.
    case half
    /// 2.0×.
    case double

    /// The segment an incoming rate maps to: 1.0 → normal, below 1 → half, above 1 → double.
    public init(rate: Double) {
        if rate == 1 {
            self = .normal
        } else if rate < 1 {
            self = .half
        } else {
            self = .double
        }
    }

    /// The rate the segment sets.
    public var rate: Double {
        switch self {
        case .normal: 1.0
        case .half: 0.5
        case .double: 2.0
        }
    }

    /// The segment's label.
    public var title: String {
        switch self {
        case .normal: "Normal"
        case .half: "Half speed"
        case .double: "Double speed"
        }
    }

    public var description: String { title }
}
