/// What the media player asks the engine to send, from its app's transport.
enum MediaPlayerOutput: Hashable, Sendable {
    /// A media-namespace payload for one sender.
    case reply(String, to: SenderEndpoint)
    /// A media-namespace payload for every sender connected to the app but one.
    case broadcast(String, excluding: SenderEndpoint?)
    /// Read the media of the current item; the outcome comes back as an event.
    case probe(MediaProbeRequest)
    /// Something to log.
    case log(DeviceLogEntry)
}
