#if canImport(Glibc)
import Glibc
#endif

/// An error from a TCP socket: connecting, listening, sending or receiving.
public struct TCPError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable identifiers for each kind of TCP error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case connectionRefused = 1
            case hostUnreachable = 2
            case networkUnreachable = 3
            case timedOut = 4
            case connectionReset = 5
            case addressInUse = 6
            case addressNotAvailable = 7
            case invalidAddress = 8
            case closed = 9
            case tooManyOpenFiles = 10
            case nameResolutionFailed = 11
            case system = 12
        }

        fileprivate let base: Base

        /// Nothing listens at the address (`ECONNREFUSED`).
        public static let connectionRefused = Code(base: .connectionRefused)
        /// No route to the host (`EHOSTUNREACH`).
        public static let hostUnreachable = Code(base: .hostUnreachable)
        /// No route to the network (`ENETUNREACH`).
        public static let networkUnreachable = Code(base: .networkUnreachable)
        /// The operation did not finish in time.
        public static let timedOut = Code(base: .timedOut)
        /// The peer reset the connection (`ECONNRESET`, `EPIPE`).
        public static let connectionReset = Code(base: .connectionReset)
        /// The local address is already bound (`EADDRINUSE`).
        public static let addressInUse = Code(base: .addressInUse)
        /// The local address does not belong to this machine (`EADDRNOTAVAIL`).
        public static let addressNotAvailable = Code(base: .addressNotAvailable)
        /// The address text or port is not valid.
        public static let invalidAddress = Code(base: .invalidAddress)
        /// The connection or listener is already closed.
        public static let closed = Code(base: .closed)
        /// The process or system ran out of file descriptors (`EMFILE`, `ENFILE`).
        public static let tooManyOpenFiles = Code(base: .tooManyOpenFiles)
        /// A host name could not be resolved to an address.
        public static let nameResolutionFailed = Code(base: .nameResolutionFailed)
        /// Another system error; see ``TCPError/errno``.
        public static let system = Code(base: .system)

        /// The stable numeric value of the code.
        public var rawValue: Int { base.rawValue }

        public var description: String {
            switch base {
            case .connectionRefused: "connectionRefused"
            case .hostUnreachable: "hostUnreachable"
            case .networkUnreachable: "networkUnreachable"
            case .timedOut: "timedOut"
            case .connectionReset: "connectionReset"
            case .addressInUse: "addressInUse"
            case .addressNotAvailable: "addressNotAvailable"
            case .invalidAddress: "invalidAddress"
            case .closed: "closed"
            case .tooManyOpenFiles: "tooManyOpenFiles"
            case .nameResolutionFailed: "nameResolutionFailed"
            case .system: "system"
            }
        }
    }

    /// What went wrong.
    public let code: Code
    /// The system call or step that failed, such as `connect` or `bind`.
    public let operation: String
    /// The address concerned, when there is one.
    public let address: String?
    /// The `errno` value reported by the system, or 0.
    public let errno: Int32

    init(code: Code, operation: String, address: String? = nil, errno: Int32 = 0) {
        self.code = code
        self.operation = operation
        self.address = address
        self.errno = errno
    }

    /// Builds the error for a failed system call from its `errno`.
    init(errno value: Int32, operation: String, address: String? = nil) {
        let code: Code =
            switch value {
            case ECONNREFUSED: .connectionRefused
            case EHOSTUNREACH: .hostUnreachable
            case ENETUNREACH: .networkUnreachable
            case ETIMEDOUT: .timedOut
            case ECONNRESET, EPIPE, ECONNABORTED: .connectionReset
            case EADDRINUSE: .addressInUse
            case EADDRNOTAVAIL: .addressNotAvailable
            case EMFILE, ENFILE: .tooManyOpenFiles
            case EBADF: .closed
            default: .system
            }
        self.init(code: code, operation: operation, address: address, errno: value)
    }

    /// The connection is closed.
    public static let closed = TCPError(code: .closed, operation: "use")
    /// An operation ran out of time.
    public static let timedOut = TCPError(code: .timedOut, operation: "wait")

    public static func == (lhs: TCPError, rhs: TCPError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String {
        var text = "TCP \(operation) failed: \(code)"
        if let address { text += " (\(address))" }
        if errno != 0 { text += ": \(String(cString: strerror(errno))) [errno \(errno)]" }
        return text
    }
}
