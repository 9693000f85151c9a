package import CastNetCore

/// Limits and timeouts of a ``CastConnection``.
public struct CastConnectionConfiguration: Sendable {
    /// The largest frame body accepted or sent. Defaults to the protocol's 64 KiB.
    public var maximumBodySize: Int = 65_536
    /// The most bytes allowed to wait for the socket. A peer that stops reading makes the
    /// queue grow; past this bound the connection closes with
    /// ``CastConnectionError/Code/sendQueueFull``. Defaults to 1 MiB.
    public var sendQueueLimit: Int = 1 << 20
    /// The longest one inbound frame may take from its first byte to its last. A peer that
    /// trickles a frame (a byte now and then, holding the connection and its buffer) is cut
    /// off with ``CastConnectionError/Code/frameTimeout``; `nil` (the default) lets a frame
    /// take as long as the peer likes. Time between frames is not limited.
    public var frameTimeout: Duration?
    /// The limit for the TCP connection (client side).
    public var connectTimeout: Duration = .seconds(10)
    /// The TLS settings of a client connection; by default any device certificate is
    /// accepted (trust comes from device authentication).
    public var tls = TLSClientConfiguration()

    /// Creates the default configuration.
    public init() {}
}

extension CastConnectionConfiguration {
    /// The bounds the connection enforces, whatever carries it.
    package var limits: CastConnectionLimits {
        CastConnectionLimits(
            maximumBodySize: maximumBodySize,
            sendQueueLimit: sendQueueLimit,
            frameTimeout: frameTimeout
        )
    }
}
