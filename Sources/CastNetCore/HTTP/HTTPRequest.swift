/// An HTTP/1.x request as received by the server.
public struct HTTPRequest: Sendable, Equatable {
    /// The method, such as `GET`.
    public var method: HTTPMethod
    /// The request target as sent: path and query, such as `/setup/eureka_info?params=name`.
    public var target: String
    /// The minor version of HTTP/1: 0 or 1.
    public var minorVersion: Int
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body (empty when none was sent).
    public var body: [UInt8]

    /// Creates a request.
    public init(
        method: HTTPMethod,
        target: String,
        minorVersion: Int = 1,
        headers: HTTPHeaders = [:],
        body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.minorVersion = minorVersion
        self.headers = headers
        self.body = body
    }

    /// The path part of the target, without the query.
    public var path: String {
        guard let mark = target.firstIndex(of: "?") else { return target }
        return String(target[..<mark])
    }

    /// The query part of the target, without the `?`, or `nil`.
    public var query: String? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        return String(target[target.index(after: mark)...])
    }

    /// Whether the client wants the connection kept open after the response.
    public var keepAlive: Bool {
        if headers.contains(name: "Connection", token: "close") { return false }
        if minorVersion == 0 { return headers.contains(name: "Connection", token: "keep-alive") }
        return true
    }
}
