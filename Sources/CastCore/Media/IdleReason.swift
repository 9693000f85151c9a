/// Why a media player became idle (`idleReason`).
///
/// An open set: values this version does not know are kept as they are; a known value in
/// another case (`interrupted`, as some apps echo what a sender sent) reads as the known one.
public struct IdleReason: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue.canonicalized(among: Self.knownValues) }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// Stopped by a STOP request.
    public static let cancelled: IdleReason = "CANCELLED"
    /// Replaced by a new LOAD.
    public static let interrupted: IdleReason = "INTERRUPTED"
    /// Reached the end of the media.
    public static let finished: IdleReason = "FINISHED"
    /// Failed with an error.
    public static let error: IdleReason = "ERROR"
}

extension IdleReason: TokenDecodable, TokenEncodable {}

extension IdleReason {
    static let knownValues = ["CANCELLED", "INTERRUPTED", "FINISHED", "ERROR"]
}
