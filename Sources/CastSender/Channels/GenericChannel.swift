import CastSync

/// Hears a ``GenericChannel`` (as `GCKGenericChannelDelegate`).
public protocol GenericChannelDelegate: AnyObject, Sendable {
    /// A text message arrived.
    func castChannel(_ channel: GenericChannel, didReceiveTextMessage message: String, withNamespace namespace: String)
    /// The channel connected; does nothing by default.
    func castChannelDidConnect(_ channel: GenericChannel)
    /// The channel disconnected; does nothing by default.
    func castChannelDidDisconnect(_ channel: GenericChannel)
}

extension GenericChannelDelegate {
    public func castChannelDidConnect(_ channel: GenericChannel) {}
    public func castChannelDidDisconnect(_ channel: GenericChannel) {}
}

/// A ``CastChannel`` that forwards to a delegate instead of being subclassed
/// (as `GCKGenericChannel`).
public final class GenericChannel: CastChannel, @unchecked Sendable {
    // Sendable: the delegate sits in a `Locked`; the base class keeps its state in one too.
    private struct Box {
        weak var delegate: (any GenericChannelDelegate)?
    }

    private let box = Locked(Box())

    /// The delegate, held weakly.
    public var delegate: (any GenericChannelDelegate)? {
        get { box.withLock { $0.delegate } }
        set { box.withLock { $0.delegate = newValue } }
    }

    public override func didReceiveTextMessage(_ message: String) {
        delegate?.castChannel(self, didReceiveTextMessage: message, withNamespace: protocolNamespace.rawValue)
    }

    public override func didConnect() {
        delegate?.castChannelDidConnect(self)
    }

    public override func didDisconnect() {
        delegate?.castChannelDidDisconnect(self)
    }
}
