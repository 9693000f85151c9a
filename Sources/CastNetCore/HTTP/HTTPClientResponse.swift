/// A response received by ``HTTPClient``.
public struct HTTPClientResponse: Sendable, Equatable {
    /// The status.
    public var status: HTTPStatus
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body, after removing any chunked transfer coding.
    public var body: [UInt8]
    /// Whether ``body`` is only the start of the body: the client stopped reading at its
    /// ``HTTPClient/bodyPrefixLimit`` and closed the connection.
    public var isPartial: Bool

    /// Creates a response.
    public init(status: HTTPStatus, headers: HTTPHeaders, body: [UInt8], isPartial: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.isPartial = isPartial
    }
}
