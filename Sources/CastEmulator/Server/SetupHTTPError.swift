/// A request the setup HTTP server could not accept.
public struct SetupHTTPError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable identifiers for each kind of error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case malformedRequestLine = 1
            case malformedHeader = 2
            case headTooLarge = 3
            case bodyTooLarge = 4
            case unsupportedTransferEncoding = 5
            case invalidControlRequest = 6
        }

        fileprivate let base: Base

        /// The request line is not `METHOD /target HTTP/1.x`.
        public static let malformedRequestLine = Code(base: .malformedRequestLine)
        /// A header line has no name, or a header value is invalid.
        public static let malformedHeader = Code(base: .malformedHeader)
        /// The request head is over the size limit.
        public static let headTooLarge = Code(base: .headTooLarge)
        /// The declared body is over the size limit.
        public static let bodyTooLarge = Code(base: .bodyTooLarge)
        /// The body uses a transfer encoding other than identity.
        public static let unsupportedTransferEncoding = Code(base: .unsupportedTransferEncoding)
        /// A fault-injection request body is not valid.
        public static let invalidControlRequest = Code(base: .invalidControlRequest)

        /// The stable numeric value of the code.
        public var rawValue: Int { base.rawValue }

        public var description: String {
            switch base {
            case .malformedRequestLine: "malformedRequestLine"
            case .malformedHeader: "malformedHeader"
            case .headTooLarge: "headTooLarge"
            case .bodyTooLarge: "bodyTooLarge"
            case .unsupportedTransferEncoding: "unsupportedTransferEncoding"
            case .invalidControlRequest: "invalidControlRequest"
            }
        }
    }

    /// What went wrong.
    public let code: Code
    /// Where and why, for people.
    public let detail: String

    init(code: Code, detail: String) {
        self.code = code
        self.detail = detail
    }

    public static func == (lhs: SetupHTTPError, rhs: SetupHTTPError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String { "setup HTTP request \(code): \(detail)" }
}
