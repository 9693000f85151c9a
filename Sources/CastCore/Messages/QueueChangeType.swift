/// What changed in a media queue (`QUEUE_CHANGE` `changeType`).
///
/// An open set: values this version does not know are kept as they are.
public struct QueueChangeType: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// Items were inserted.
    public static let insert: QueueChangeType = "INSERT"
    /// Items were removed.
    public static let remove: QueueChangeType = "REMOVE"
    /// Items were reordered or changed.
    public static let update: QueueChangeType = "UPDATE"
    /// Item contents changed.
    public static let itemsChange: QueueChangeType = "ITEMS_CHANGE"
    /// Nothing changed.
    public static let noChange: QueueChangeType = "NO_CHANGE"
}

extension QueueChangeType: TokenDecodable, TokenEncodable {}
