public import CastNetCore

/// Limits and timeouts of an ``HTTPServer``.
public struct HTTPServerConfiguration: Sendable {
    /// Size limits of each request.
    public var limits = HTTPRequestParser.Limits()
    /// How long a client may take to send a complete request (header section and body),
    /// counted from the connection or from the previous response. A client that trickles
    /// bytes (slowloris) is answered 408 and disconnected when it runs out.
    public var requestTimeout: Duration = .seconds(10)
    /// The most requests served on one connection before it is closed.
    public var maximumRequestsPerConnection = 1000
    /// The `Server` header value, or `nil` for none.
    public var serverName: String? = nil
    /// The most connections open at once (TLS handshakes and event streams included); a
    /// further one is closed as it is accepted, before a byte is read. `nil` for no limit.
    public var maximumConnections: Int? = nil

    /// Creates the default configuration.
    public init() {}
}
