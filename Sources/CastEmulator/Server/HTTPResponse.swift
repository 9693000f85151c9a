/// One HTTP/1.1 response of the setup server.
struct HTTPResponse: Sendable, Equatable {
    var status: Int
    var reason: String
    var contentType: String?
    var body: [UInt8]

    /// A JSON response.
    static func json(_ body: [UInt8], status: Int = 200, reason: String = "OK") -> HTTPResponse {
        HTTPResponse(status: status, reason: reason, contentType: "application/json", body: body)
    }

    /// A plain-text error response.
    static func error(_ status: Int, _ reason: String, detail: String? = nil) -> HTTPResponse {
        HTTPResponse(
            status: status,
            reason: reason,
            contentType: "text/plain; charset=utf-8",
            body: Array(((detail ?? reason) + "\n").utf8)
        )
    }

    /// The response as bytes, with `Connection: close` (one request per connection).
    /// - Parameter includeBody: `false` for a `HEAD` request.
    func serialized(includeBody: Bool = true) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(reason)\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        head += "Content-Length: \(body.count)\r\n"
        head += "Cache-Control: no-cache\r\n"
        head += "Connection: close\r\n\r\n"
        return Array(head.utf8) + (includeBody ? body : [])
    }
}
