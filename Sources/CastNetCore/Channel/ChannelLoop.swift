/// The thread of control a ``ByteChannel`` and its handler run on: an epoll event loop in
/// `CastNet`, an embedded loop driven by a test in `CastNetEmbedded`.
///
/// Everything a channel and its handler own is touched only from work the loop runs, so
/// they need no lock of their own; other threads hand work over with ``execute(_:)``.
///
/// Public because `CastNet`'s public `EventLoop` is one; the channels themselves are `package`.
public protocol ChannelLoop: AnyObject, Sendable {
    /// Runs `work` on the loop, later, after the work handed over before it.
    func execute(_ work: @escaping @Sendable () -> Void)
    /// Whether the caller runs on the loop now.
    var inLoop: Bool { get }
}
