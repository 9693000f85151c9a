/// Why a virtual connection was closed (`CLOSE` `reasonCode`).
///
/// An open set: values this version does not know are kept as they are.
package struct CloseReason: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    package let rawValue: Int

    package init(rawValue: Int) { self.rawValue = rawValue }
    package init(integerLiteral value: Int) { self.rawValue = value }
    package var description: String { "\(rawValue)" }

    /// No reason given.
    package static let unknown: CloseReason = 0
    /// The transport closed.
    package static let transportClosed: CloseReason = 1
    /// The transport failed.
    package static let transportAborted: CloseReason = 2
    /// A message was invalid.
    package static let invalidMessage: CloseReason = 3
    /// The connection was idle too long.
    package static let tooLongInactive: CloseReason = 4
    /// The sender closed it (sent by Chromium on a graceful close).
    package static let closedBySelf: CloseReason = 5
    /// The peer closed it.
    package static let closedByPeer: CloseReason = 6
}

extension CloseReason: TokenDecodable, TokenEncodable {}
