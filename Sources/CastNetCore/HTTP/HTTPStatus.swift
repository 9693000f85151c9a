/// An HTTP response status.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    /// The three-digit code.
    public let code: Int
    /// The reason phrase sent after the code.
    public let reasonPhrase: String

    /// Creates a status; the reason phrase defaults to the standard one for known codes.
    public init(code: Int, reasonPhrase: String? = nil) {
        self.code = code
        self.reasonPhrase = reasonPhrase ?? Self.standardPhrase(code)
    }

    public static let ok = HTTPStatus(code: 200)
    public static let noContent = HTTPStatus(code: 204)
    public static let partialContent = HTTPStatus(code: 206)
    public static let badRequest = HTTPStatus(code: 400)
    public static let forbidden = HTTPStatus(code: 403)
    public static let notFound = HTTPStatus(code: 404)
    public static let methodNotAllowed = HTTPStatus(code: 405)
    public static let requestTimeout = HTTPStatus(code: 408)
    public static let payloadTooLarge = HTTPStatus(code: 413)
    public static let uriTooLong = HTTPStatus(code: 414)
    public static let rangeNotSatisfiable = HTTPStatus(code: 416)
    public static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431)
    public static let internalServerError = HTTPStatus(code: 500)
    public static let notImplemented = HTTPStatus(code: 501)
    public static let httpVersionNotSupported = HTTPStatus(code: 505)

    public static func == (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String { "\(code) \(reasonPhrase)" }

    private static func standardPhrase(_ code: Int) -> String {
        switch code {
        case 200: "OK"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 416: "Range Not Satisfiable"
        case 421: "Misdirected Request"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status \(code)"
        }
    }
}
