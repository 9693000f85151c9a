public import CastCore

/// What a ``VirtualDeviceEngine`` asks its owner to do after an event.
///
/// The owner performs the actions in order. It may delay `send` actions (to simulate a slow
/// device) as long as it keeps their order per connection.
public enum DeviceAction: Hashable, Sendable {
    /// Send a message on a connection.
    case send(CastMessage, to: ConnectionID)
    /// Close a connection; the engine has already forgotten it and expects no
    /// ``VirtualDeviceEngine/connectionClosed(_:at:)`` for it.
    case close(ConnectionID, reason: ConnectionCloseReason)
    /// Record something for the operator.
    case log(DeviceLogEntry)
    /// The receiver status changed (app, volume): the mDNS TXT record may need an update.
    case receiverStatusChanged
    /// The running application changed (launch, stop, restart).
    case appsChanged
    /// Read the media a `LOAD` named, off the engine, and report the outcome with
    /// `VirtualDeviceEngine.mediaProbed(_:outcome:at:)`.
    case probeMedia(MediaProbeRequest)
    /// Something the other devices of the device's speaker groups must learn
    /// (``SpeakerGroupHub`` carries it to them).
    case multizone(SpeakerGroupEvent)
}
