/// The reason string of `INVALID_REQUEST`, `LOAD_FAILED` and `ERROR` replies.
///
/// An open set: values this version does not know are kept as they are.
public struct ErrorReason: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// `INVALID_COMMAND`.
    public static let invalidCommand: ErrorReason = "INVALID_COMMAND"
    /// `INVALID_PARAMS`.
    public static let invalidParams: ErrorReason = "INVALID_PARAMS"
    /// `INVALID_MEDIA_SESSION_ID`.
    public static let invalidMediaSessionID: ErrorReason = "INVALID_MEDIA_SESSION_ID"
    /// `INVALID_SESSION_ID`.
    public static let invalidSessionID: ErrorReason = "INVALID_SESSION_ID"
    /// `SKIP_LIMIT_REACHED`.
    public static let skipLimitReached: ErrorReason = "SKIP_LIMIT_REACHED"
    /// `NOT_SUPPORTED`.
    public static let notSupported: ErrorReason = "NOT_SUPPORTED"
    /// `LANGUAGE_NOT_SUPPORTED`.
    public static let languageNotSupported: ErrorReason = "LANGUAGE_NOT_SUPPORTED"
    /// `END_OF_QUEUE`.
    public static let endOfQueue: ErrorReason = "END_OF_QUEUE"
    /// `DUPLICATE_REQUEST_ID`.
    public static let duplicateRequestID: ErrorReason = "DUPLICATE_REQUEST_ID"
    /// `VIDEO_DEVICE_REQUIRED`.
    public static let videoDeviceRequired: ErrorReason = "VIDEO_DEVICE_REQUIRED"
    /// `PREMIUM_ACCOUNT_REQUIRED`.
    public static let premiumAccountRequired: ErrorReason = "PREMIUM_ACCOUNT_REQUIRED"
    /// `APP_ERROR`.
    public static let appError: ErrorReason = "APP_ERROR"
    /// `AUTHENTICATION_EXPIRED`.
    public static let authenticationExpired: ErrorReason = "AUTHENTICATION_EXPIRED"
    /// `CONCURRENT_STREAM_LIMIT`.
    public static let concurrentStreamLimit: ErrorReason = "CONCURRENT_STREAM_LIMIT"
    /// `PARENTAL_CONTROL_RESTRICTED`.
    public static let parentalControlRestricted: ErrorReason = "PARENTAL_CONTROL_RESTRICTED"
    /// `CONTENT_FILTERED`.
    public static let contentFiltered: ErrorReason = "CONTENT_FILTERED"
    /// `NOT_AVAILABLE_IN_REGION`.
    public static let notAvailableInRegion: ErrorReason = "NOT_AVAILABLE_IN_REGION"
    /// `CONTENT_ALREADY_PLAYING`.
    public static let contentAlreadyPlaying: ErrorReason = "CONTENT_ALREADY_PLAYING"
    /// `INVALID_REQUEST`.
    public static let invalidRequest: ErrorReason = "INVALID_REQUEST"
    /// `GENERIC_LOAD_ERROR`.
    public static let genericLoadError: ErrorReason = "GENERIC_LOAD_ERROR"
}

extension ErrorReason: TokenDecodable, TokenEncodable {}
