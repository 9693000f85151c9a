/// Why an image could not be had: what failed and for which URL.
public struct ImageCacheError: Error, Hashable, Sendable, CustomStringConvertible {
    fileprivate enum Code: Int, Sendable {
        case unsupportedURL = 1
        case fetchFailed = 2
        case httpStatus = 3
        case tooLarge = 4
        case tooManyRedirects = 5
        case cancelled = 6
    }

    /// A stable code for one kind of problem.
    public struct Kind: Hashable, Sendable {
        fileprivate let code: Code

        /// The URL is not `http` or `https`.
        public static let unsupportedURL = Kind(code: .unsupportedURL)
        /// The connection or the exchange failed.
        public static let fetchFailed = Kind(code: .fetchFailed)
        /// The server answered with a status other than 200.
        public static let httpStatus = Kind(code: .httpStatus)
        /// The image is larger than the limit.
        public static let tooLarge = Kind(code: .tooLarge)
        /// The server redirected too often.
        public static let tooManyRedirects = Kind(code: .tooManyRedirects)
        /// The caller's task was cancelled while it waited.
        public static let cancelled = Kind(code: .cancelled)

        /// The stable number of the code.
        public var rawValue: Int { code.rawValue }
    }

    /// What went wrong.
    public let kind: Kind
    /// The URL asked for.
    public let url: String
    /// Details: the status, the size or the underlying error.
    public let detail: String

    /// Creates an error.
    public init(_ kind: Kind, url: String, _ detail: String) {
        self.kind = kind
        self.url = url
        self.detail = detail
    }

    /// Errors are equal when kind and URL are.
    public static func == (lhs: ImageCacheError, rhs: ImageCacheError) -> Bool {
        lhs.kind == rhs.kind && lhs.url == rhs.url
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(url)
    }

    public var description: String { "image \(url): \(detail)" }
}
