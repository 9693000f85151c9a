/// The bounds a Cast connection enforces, whatever carries its bytes: the part of `CastNet`'s
/// `CastConnectionConfiguration` that is not about sockets or TLS.
package struct CastConnectionLimits: Sendable {
    /// The largest frame body accepted or sent.
    package var maximumBodySize: Int
    /// The most bytes allowed to wait for the channel before the connection closes with
    /// ``CastConnectionError/Code/sendQueueFull``.
    package var sendQueueLimit: Int
    /// The longest one inbound frame may take from its first byte to its last; `nil` for no
    /// limit.
    package var frameTimeout: Duration?

    /// Creates limits.
    package init(maximumBodySize: Int = 65_536, sendQueueLimit: Int = 1 << 20, frameTimeout: Duration? = nil) {
        self.maximumBodySize = maximumBodySize
        self.sendQueueLimit = sendQueueLimit
        self.frameTimeout = frameTimeout
    }
}
