/// Why an HTTP message could not be parsed; each error maps to the response status a
/// server answers with.
public struct HTTPParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable identifiers for each kind of parse error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case malformedStartLine = 1
            case startLineTooLong = 2
            case headersTooLarge = 3
            case malformedHeader = 4
            case unsupportedVersion = 5
            case invalidContentLength = 6
            case bodyTooLarge = 7
            case unsupportedTransferEncoding = 8
            case malformedChunk = 9
        }

        fileprivate let base: Base

        /// The request line or status line is not `TOKEN SP TARGET SP HTTP/1.x`.
        public static let malformedStartLine = Code(base: .malformedStartLine)
        /// The request line is longer than allowed (414).
        public static let startLineTooLong = Code(base: .startLineTooLong)
        /// The header section is larger, or has more fields, than allowed (431).
        public static let headersTooLarge = Code(base: .headersTooLarge)
        /// A header line has no colon, a space before it, or is folded.
        public static let malformedHeader = Code(base: .malformedHeader)
        /// The version is not HTTP/1.0 or HTTP/1.1 (505).
        public static let unsupportedVersion = Code(base: .unsupportedVersion)
        /// `Content-Length` is not a number, or two values disagree.
        public static let invalidContentLength = Code(base: .invalidContentLength)
        /// The body is larger than allowed (413).
        public static let bodyTooLarge = Code(base: .bodyTooLarge)
        /// The request uses a transfer coding the server does not implement (501).
        public static let unsupportedTransferEncoding = Code(base: .unsupportedTransferEncoding)
        /// A chunk of a chunked body is malformed.
        public static let malformedChunk = Code(base: .malformedChunk)

        /// The stable numeric value of the code.
        public var rawValue: Int { base.rawValue }

        public var description: String {
            switch base {
            case .malformedStartLine: "malformedStartLine"
            case .startLineTooLong: "startLineTooLong"
            case .headersTooLarge: "headersTooLarge"
            case .malformedHeader: "malformedHeader"
            case .unsupportedVersion: "unsupportedVersion"
            case .invalidContentLength: "invalidContentLength"
            case .bodyTooLarge: "bodyTooLarge"
            case .unsupportedTransferEncoding: "unsupportedTransferEncoding"
            case .malformedChunk: "malformedChunk"
            }
        }
    }

    /// What went wrong.
    public let code: Code
    /// The byte offset in the stream where the problem was found.
    public let offset: Int
    /// Details, such as the header name or the limit.
    public let detail: String

    package init(_ code: Code, offset: Int, detail: String) {
        self.code = code
        self.offset = offset
        self.detail = detail
    }

    /// The status a server answers this error with.
    public var status: HTTPStatus {
        switch code.base {
        case .startLineTooLong: .uriTooLong
        case .headersTooLarge: .requestHeaderFieldsTooLarge
        case .unsupportedVersion: .httpVersionNotSupported
        case .bodyTooLarge: .payloadTooLarge
        case .unsupportedTransferEncoding: .notImplemented
        default: .badRequest
        }
    }

    public static func == (lhs: HTTPParseError, rhs: HTTPParseError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String { "HTTP parse error \(code) at byte \(offset): \(detail)" }
}
