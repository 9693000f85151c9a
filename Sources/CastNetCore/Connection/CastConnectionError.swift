/// Why a Cast connection failed or refused an operation.
public struct CastConnectionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable identifiers for each kind of connection error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case framing = 1
            case truncatedFrame = 2
            case sendQueueFull = 3
            case messageTooLarge = 4
            case transport = 5
            case closed = 6
            case frameTimeout = 7
        }

        fileprivate let base: Base

        /// The peer sent a frame header the decoder rejects (empty or over the size limit).
        public static let framing = Code(base: .framing)
        /// The peer closed the stream in the middle of a frame.
        public static let truncatedFrame = Code(base: .truncatedFrame)
        /// More bytes waited to be sent than the configured bound: the peer is not reading.
        public static let sendQueueFull = Code(base: .sendQueueFull)
        /// A message to send is empty or over the size limit; the connection stays open.
        public static let messageTooLarge = Code(base: .messageTooLarge)
        /// The TCP or TLS layer failed; see ``CastConnectionError/underlying``.
        public static let transport = Code(base: .transport)
        /// The connection is already closed.
        public static let closed = Code(base: .closed)
        /// The peer left a frame unfinished for longer than
        /// ``CastConnectionConfiguration/frameTimeout``.
        public static let frameTimeout = Code(base: .frameTimeout)

        /// The stable numeric value of the code.
        public var rawValue: Int { base.rawValue }

        public var description: String {
            switch base {
            case .framing: "framing"
            case .truncatedFrame: "truncatedFrame"
            case .sendQueueFull: "sendQueueFull"
            case .messageTooLarge: "messageTooLarge"
            case .transport: "transport"
            case .closed: "closed"
            case .frameTimeout: "frameTimeout"
            }
        }
    }

    /// What went wrong.
    public let code: Code
    /// Details: sizes, limits, offsets or the closing reason.
    public let reason: String
    /// The error from a lower layer (``FrameError``, ``TCPError``, ``TLSError``), if any.
    public let underlying: (any Error & Sendable)?

    package init(code: Code, reason: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.reason = reason
        self.underlying = underlying
    }

    /// Wraps an error that closed the transport (a `TCPError` or `TLSError` of `CastNet`,
    /// or whatever a channel in memory was told to fail with).
    package init(transport error: any Error) {
        if let error = error as? CastConnectionError {
            self = error
        } else {
            self.init(code: .transport, reason: "\(error)", underlying: error)
        }
    }

    public static func == (lhs: CastConnectionError, rhs: CastConnectionError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String { "Cast connection \(code): \(reason)" }
}
