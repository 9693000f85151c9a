/// An error of the Cast sender SDK, with a stable numeric code that follows the numbering
/// of Google's `GCKError` so that codes read the same in both worlds.
///
/// Compare errors by code: `error.code == .timeout`. The ``reason``, the receiver's
/// ``wireReason`` and ``detailedErrorCode`` say what failed and where; they take no part
/// in `==`.
public struct CastError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure, with a stable ``rawValue``.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case network = 1
            case timeout = 2
            case deviceAuthentication = 3
            case invalidRequest = 4
            case cancelled = 5
            case replaced = 6
            case notAllowed = 7
            case duplicateRequest = 8
            case invalidState = 9
            case messageTooBig = 11
            case channelNotConnected = 12
            case deviceNotConnected = 14
            case protocolError = 18
            case alreadyInitialized = 19
            case applicationNotFound = 20
            case applicationNotRunning = 21
            case invalidApplicationSessionID = 22
            case invalidResponse = 27
            case sessionIsNotActive = 29
            case mediaLoadFailed = 30
            case invalidMediaPlayerState = 31
            case noMediaSession = 32
            case mediaError = 34
            case disconnected = 92
            case secretsWithheld = 93
            case unknown = 99
        }

        fileprivate let base: Base

        /// 1: the network failed (connect, TLS, socket error).
        public static let network = Code(base: .network)
        /// 2: no reply came in time.
        public static let timeout = Code(base: .timeout)
        /// 3: device authentication failed.
        public static let deviceAuthentication = Code(base: .deviceAuthentication)
        /// 4: the request was invalid (bad arguments, or the receiver's INVALID_REQUEST).
        public static let invalidRequest = Code(base: .invalidRequest)
        /// 5: the request or operation was cancelled.
        public static let cancelled = Code(base: .cancelled)
        /// 6: a newer request replaced this one.
        public static let replaced = Code(base: .replaced)
        /// 7: the receiver refused the operation.
        public static let notAllowed = Code(base: .notAllowed)
        /// 8: the same request is already in flight.
        public static let duplicateRequest = Code(base: .duplicateRequest)
        /// 9: the operation is not valid in the current state.
        public static let invalidState = Code(base: .invalidState)
        /// 11: the message is larger than a frame can carry.
        public static let messageTooBig = Code(base: .messageTooBig)
        /// 12: the channel is not connected.
        public static let channelNotConnected = Code(base: .channelNotConnected)
        /// 14: there is no connection to the device.
        public static let deviceNotConnected = Code(base: .deviceNotConnected)
        /// 18: the device broke the protocol (undecodable or unexpected message).
        public static let protocolError = Code(base: .protocolError)
        /// 19: the shared context was already configured.
        public static let alreadyInitialized = Code(base: .alreadyInitialized)
        /// 20: the receiver application is unknown to the device.
        public static let applicationNotFound = Code(base: .applicationNotFound)
        /// 21: the receiver application is not running.
        public static let applicationNotRunning = Code(base: .applicationNotRunning)
        /// 22: the receiver application session id is not valid.
        public static let invalidApplicationSessionID = Code(base: .invalidApplicationSessionID)
        /// 27: the reply could not be understood.
        public static let invalidResponse = Code(base: .invalidResponse)
        /// 29: the session is not active.
        public static let sessionIsNotActive = Code(base: .sessionIsNotActive)
        /// 30: the media failed to load.
        public static let mediaLoadFailed = Code(base: .mediaLoadFailed)
        /// 31: the command is not valid in the player's state.
        public static let invalidMediaPlayerState = Code(base: .invalidMediaPlayerState)
        /// 32: there is no media session.
        public static let noMediaSession = Code(base: .noMediaSession)
        /// 34: the receiver reported a media error.
        public static let mediaError = Code(base: .mediaError)
        /// 92: the connection to the device was lost.
        public static let disconnected = Code(base: .disconnected)
        /// 93: the request would send secrets (launch credentials, `customData`, media
        /// credentials) to a device that did not authenticate, and
        /// ``CastOptions/sendsSecretsToUnauthenticatedDevices`` is off; nothing was sent. (Google's
        /// SDK has no such code: it never connects to a device that does not authenticate.)
        public static let secretsWithheld = Code(base: .secretsWithheld)
        /// 99: an unknown error.
        public static let unknown = Code(base: .unknown)

        /// The stable number of the code (as in `GCKErrorCode`).
        public var rawValue: Int { base.rawValue }

        /// Creates the code with `rawValue`, or `nil` when no code has that number.
        public init?(rawValue: Int) {
            guard let base = Base(rawValue: rawValue) else { return nil }
            self.base = base
        }

        fileprivate init(base: Base) {
            self.base = base
        }

        public var description: String {
            let name =
                switch base {
                case .network: "network error"
                case .timeout: "timeout"
                case .deviceAuthentication: "device authentication failure"
                case .invalidRequest: "invalid request"
                case .cancelled: "cancelled"
                case .replaced: "replaced"
                case .notAllowed: "not allowed"
                case .duplicateRequest: "duplicate request"
                case .invalidState: "invalid state"
                case .messageTooBig: "message too big"
                case .channelNotConnected: "channel not connected"
                case .deviceNotConnected: "device not connected"
                case .protocolError: "protocol error"
                case .alreadyInitialized: "already initialized"
                case .applicationNotFound: "application not found"
                case .applicationNotRunning: "application not running"
                case .invalidApplicationSessionID: "invalid application session ID"
                case .invalidResponse: "invalid response"
                case .sessionIsNotActive: "session is not active"
                case .mediaLoadFailed: "media load failed"
                case .invalidMediaPlayerState: "invalid media player state"
                case .noMediaSession: "no media session"
                case .mediaError: "media error"
                case .disconnected: "disconnected"
                case .secretsWithheld: "secrets withheld from an unauthenticated device"
                case .unknown: "unknown error"
                }
            return "\(name) (\(rawValue))"
        }
    }

    /// The kind of failure.
    public let code: Code
    /// What failed and where, in words.
    public let reason: String
    /// The `reason` string sent by the receiver (e.g. `INVALID_MEDIA_SESSION_ID`), if any.
    public let wireReason: String?
    /// The receiver's `detailedErrorCode`, if any.
    public let detailedErrorCode: Int?
    /// The error that caused this one, if any.
    public let underlying: (any Error & Sendable)?

    /// Creates an error.
    /// - Parameters:
    ///   - code: the kind of failure.
    ///   - reason: what failed and where.
    ///   - wireReason: the receiver's `reason` string.
    ///   - detailedErrorCode: the receiver's `detailedErrorCode`.
    ///   - underlying: the cause.
    public init(
        _ code: Code,
        _ reason: String,
        wireReason: String? = nil,
        detailedErrorCode: Int? = nil,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.reason = reason
        self.wireReason = wireReason
        self.detailedErrorCode = detailedErrorCode
        self.underlying = underlying
    }

    /// The stable number of ``code``.
    public var rawValue: Int { code.rawValue }

    public static func == (lhs: CastError, rhs: CastError) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String {
        var text = "CastError \(code): \(reason)"
        if let wireReason { text += " [reason \(wireReason)]" }
        if let detailedErrorCode { text += " [detailedErrorCode \(detailedErrorCode)]" }
        if let underlying { text += " (caused by \(underlying))" }
        return text
    }
}
