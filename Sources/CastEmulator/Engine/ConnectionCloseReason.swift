/// Why a virtual device asks its owner to close a sender's TLS connection.
///
/// An open set: new reasons may be added.
public struct ConnectionCloseReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// A short machine-readable name.
    public var rawValue: String

    /// Creates a reason from its name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The sender sent nothing, not even a PONG, for longer than the liveness window.
    public static let livenessTimeout = ConnectionCloseReason(rawValue: "liveness-timeout")

    public var description: String { rawValue }
}
