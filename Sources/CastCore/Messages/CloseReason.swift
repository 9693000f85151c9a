/// Why a virtual connection was closed (`CLOSE` `reasonCode`).
///
/// An open set: values this version does not know are kept as they are.
public struct CloseReason: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(integerLiteral value: Int) { self.rawValue = value }
    public var description: String { "\(rawValue)" }

    /// No reason given.
    public static let unknown: CloseReason = 0
    /// The transport closed.
    public static let transportClosed: CloseReason = 1
    /// The transport failed.
    public static let transportAborted: CloseReason = 2
    /// A message was invalid.
    public static let invalidMessage: CloseReason = 3
    /// The connection was idle too long.
    public static let tooLongInactive: CloseReason = 4
    /// The sender closed it (sent by Chromium on a graceful close).
    public static let closedBySelf: CloseReason = 5
    /// The peer closed it.
    public static let closedByPeer: CloseReason = 6
}

extension CloseReason: TokenDecodable, TokenEncodable {}
