/// The edge style of text-track characters (`edgeType`).
///
/// An open set: values this version does not know are kept as they are.
public struct TextTrackEdgeType: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// No edge.
    public static let noEdge: TextTrackEdgeType = "NONE"
    /// An outline.
    public static let outline: TextTrackEdgeType = "OUTLINE"
    /// A drop shadow.
    public static let dropShadow: TextTrackEdgeType = "DROP_SHADOW"
    /// Raised characters.
    public static let raised: TextTrackEdgeType = "RAISED"
    /// Depressed characters.
    public static let depressed: TextTrackEdgeType = "DEPRESSED"
}

extension TextTrackEdgeType: TokenDecodable, TokenEncodable {}
