public import CastNetCore

/// An HTTP response produced by a route.
public struct HTTPResponse: Sendable {
    /// What follows the header section.
    public struct Body: Sendable {
        enum Storage: Sendable {
            case bytes([UInt8])
            case file(path: String)
            case openFile(HTTPServedFile)
            case stream(HTTPResponseStream)
        }

        let storage: Storage

        /// No body.
        public static let empty = Body(storage: .bytes([]))

        /// Bytes held in memory.
        public static func bytes(_ bytes: [UInt8]) -> Body { Body(storage: .bytes(bytes)) }

        /// UTF-8 text.
        public static func text(_ text: String) -> Body { Body(storage: .bytes(Array(text.utf8))) }

        /// A file, streamed from disk as the client reads. A `Range` request gets the
        /// matching region of the file.
        public static func file(path: String) -> Body { Body(storage: .file(path: path)) }

        /// A file opened once beforehand, streamed from its descriptor: what a response
        /// serves cannot change by renaming or replacing the path. A `Range` request gets
        /// the matching region; a closed file is 404.
        public static func openFile(_ file: HTTPServedFile) -> Body { Body(storage: .openFile(file)) }

        /// A body written while the client reads it (server-sent events): sent without a
        /// `Content-Length`, it ends, and the connection closes, when the stream finishes or
        /// the client goes away. A `HEAD` request gets the header section and closes the
        /// stream.
        public static func stream(_ stream: HTTPResponseStream) -> Body { Body(storage: .stream(stream)) }
    }

    /// The status; a 200 becomes 206 or 416 when the request has a `Range` header.
    public var status: HTTPStatus
    /// Header fields; `Content-Length`, `Date`-free framing headers are added by the server.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Body

    /// Creates a response.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: Body = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A 200 response with `body` and its content type.
    public static func ok(_ body: Body, contentType: String) -> HTTPResponse {
        HTTPResponse(status: .ok, headers: ["Content-Type": contentType], body: body)
    }

    /// A response with only a status and a short text body.
    public static func status(_ status: HTTPStatus) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: ["Content-Type": "text/plain; charset=utf-8"],
            body: .text("\(status.description)\n")
        )
    }
}
