import CastSync
import Foundation

/// A small HTTP/1.1 client on CastNet's TCP and TLS, one connection per request.
///
/// It exists because a Cast sender must read `https://DEVICE:8443/setup/eureka_info` from
/// a device with a self-signed certificate, which `URLSession` on Linux cannot accept.
/// By default, like the TLS client, it accepts any server certificate; set ``tls`` to
/// verify against roots.
public struct HTTPClient: Sendable {
    /// TLS settings for `https` URLs.
    public var tls = TLSClientConfiguration()
    /// The limit for the whole exchange: connecting, sending and receiving.
    public var timeout: Duration = .seconds(10)
    /// The largest body accepted.
    public var maximumBodySize = 8 << 20
    /// The clock for the timeout.
    public var clock: any CastClock = SystemCastClock()
    /// The loops to run on.
    public var group: EventLoopGroup = .shared

    /// Creates a client with the default settings.
    public init() {}

    /// Sends a `GET` for `url` (`http://` or `https://`).
    /// - Throws: ``TCPError``, ``TLSError`` or ``HTTPParseError``; ``TCPError/Code/timedOut``
    ///   when the exchange outlasts ``timeout``.
    public func get(_ url: String, headers: HTTPHeaders = [:]) async throws -> HTTPClientResponse {
        try await execute(.get, url: url, headers: headers)
    }

    /// Sends a request and reads the whole response.
    /// - Throws: ``TCPError``, ``TLSError`` or ``HTTPParseError``.
    public func execute(
        _ method: HTTPMethod,
        url: String,
        headers: HTTPHeaders = [:],
        body: [UInt8] = []
    ) async throws -> HTTPClientResponse {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else {
            throw TCPError(code: .invalidAddress, operation: "parse URL", address: url)
        }
        let secure = scheme == "https"
        let port = components.port ?? (secure ? 443 : 80)
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?\(query)" }

        var requestHeaders = headers
        if requestHeaders["Host"] == nil {
            let hostField = host.contains(":") ? "[\(host)]" : host
            let defaultPort = secure ? 443 : 80
            requestHeaders.add(name: "Host", value: port == defaultPort ? hostField : "\(hostField):\(port)")
        }
        requestHeaders.replaceOrAdd(name: "Connection", value: "close")
        if !body.isEmpty || method == .post || method == .put {
            requestHeaders.replaceOrAdd(name: "Content-Length", value: String(body.count))
        }
        let head = PreparedHTTPResponse.serializeRequestHead(method: method, target: target, headers: requestHeaders)

        let expired = Locked(false)
        let connectionBox = Locked<TCPConnection?>(nil)
        let timer = clock.schedule(after: timeout) {
            expired.withLock { $0 = true }
            connectionBox.withLock { $0 }?.close()
        }
        defer { timer.cancel() }
        do {
            var tlsConfiguration = tls
            if secure && tlsConfiguration.serverName == nil && (try? SocketAddress(ipAddress: host, port: 0)) == nil {
                tlsConfiguration.serverName = host
            }
            let connection = try await TCPConnection.connect(
                host: host,
                port: port,
                tls: secure ? tlsConfiguration : nil,
                timeout: timeout,
                clock: clock,
                group: group
            )
            connectionBox.withLock { $0 = connection }
            defer { connection.close() }
            if expired.withLock({ $0 }) { throw TCPError(code: .timedOut, operation: "HTTP request", address: url) }
            try await connection.send(head + body)
            var parser = HTTPResponseParser(requestMethod: method, maximumBodySize: maximumBodySize)
            while true {
                guard let bytes = try await connection.receive() else {
                    if expired.withLock({ $0 }) {
                        throw TCPError(code: .timedOut, operation: "HTTP request", address: url)
                    }
                    return try parser.finish()
                }
                parser.append(bytes)
                if let response = try parser.nextResponse() { return response }
            }
        } catch {
            if expired.withLock({ $0 }) { throw TCPError(code: .timedOut, operation: "HTTP request", address: url) }
            throw error
        }
    }
}

extension PreparedHTTPResponse {
    static func serializeRequestHead(method: HTTPMethod, target: String, headers: HTTPHeaders) -> [UInt8] {
        var text = "\(method.rawValue) \(target) HTTP/1.1\r\n"
        for field in headers { text += "\(field.name): \(field.value)\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }
}
