/// A response received by ``HTTPClient``.
public struct HTTPClientResponse: Sendable, Equatable {
    /// The status.
    public var status: HTTPStatus
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body, after removing any chunked transfer coding.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: HTTPStatus, headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
