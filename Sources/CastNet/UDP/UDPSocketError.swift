import Glibc

/// A failure of a UDP socket operation or of listing network interfaces.
public struct UDPSocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable identifiers for each failing operation.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case create = 1
            case option = 2
            case bind = 3
            case joinGroup = 4
            case leaveGroup = 5
            case send = 6
            case receive = 7
            case interfaces = 8
            case unknownInterface = 9
            case closed = 10
            case addressFamily = 11
            case noUsableInterface = 12
        }

        fileprivate let base: Base

        /// `socket()` failed.
        public static let create = Code(base: .create)
        /// A socket option could not be set.
        public static let option = Code(base: .option)
        /// `bind()` failed.
        public static let bind = Code(base: .bind)
        /// Joining a multicast group failed.
        public static let joinGroup = Code(base: .joinGroup)
        /// Leaving a multicast group failed.
        public static let leaveGroup = Code(base: .leaveGroup)
        /// Sending a datagram failed.
        public static let send = Code(base: .send)
        /// Receiving a datagram failed.
        public static let receive = Code(base: .receive)
        /// The interface list could not be read.
        public static let interfaces = Code(base: .interfaces)
        /// A named interface does not exist.
        public static let unknownInterface = Code(base: .unknownInterface)
        /// The socket is closed.
        public static let closed = Code(base: .closed)
        /// An address does not match the socket's family.
        public static let addressFamily = Code(base: .addressFamily)
        /// No interface among those seen or named could carry mDNS; the error's ``detail``
        /// names each one and why it was left out.
        public static let noUsableInterface = Code(base: .noUsableInterface)

        /// The stable numeric value of the code.
        public var rawValue: Int { base.rawValue }

        public var description: String {
            switch base {
            case .create: "create"
            case .option: "option"
            case .bind: "bind"
            case .joinGroup: "joinGroup"
            case .leaveGroup: "leaveGroup"
            case .send: "send"
            case .receive: "receive"
            case .interfaces: "interfaces"
            case .unknownInterface: "unknownInterface"
            case .closed: "closed"
            case .addressFamily: "addressFamily"
            case .noUsableInterface: "noUsableInterface"
            }
        }
    }

    /// The failing operation.
    public let code: Code
    /// The `errno` value, or 0.
    public let errno: Int32
    /// What the operation was applied to (an option name, an address, an interface name).
    public let detail: String

    /// Creates an error.
    public init(_ code: Code, errno: Int32, detail: String = "") {
        self.code = code
        self.errno = errno
        self.detail = detail
    }

    public static func == (lhs: UDPSocketError, rhs: UDPSocketError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The error of a discovery start that found no interface to run on: `rejected` names
    /// each interface looked at and why it was left out.
    static func noUsableInterface(_ rejected: [(name: String, reason: String)]) -> UDPSocketError {
        let seen =
            rejected.isEmpty
            ? "this machine lists no network interface"
            : "seen: " + rejected.map { "\($0.name) (\($0.reason))" }.joined(separator: ", ")
        return UDPSocketError(.noUsableInterface, errno: 0, detail: seen)
    }

    public var description: String {
        let reason = errno == 0 ? "" : ": \(String(cString: strerror(errno))) (errno \(errno))"
        let subject = detail.isEmpty ? "" : " (\(detail))"
        switch code {
        case .unknownInterface: return "no network interface named \(detail)"
        case .noUsableInterface: return "no network interface can carry mDNS discovery; \(detail)"
        default: return "UDP \(code) failed\(subject)\(reason)"
        }
    }
}
