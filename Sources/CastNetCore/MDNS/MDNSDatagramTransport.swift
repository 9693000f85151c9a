/// A DNS message received on an mDNS socket, and where it came from.
package struct MDNSDatagram: Sendable {
    /// The decoded message.
    package var message: DNSMessage
    /// The sender.
    package var source: UDPEndpoint
    /// The index of the interface it arrived on.
    package var interfaceIndex: UInt32

    package init(message: DNSMessage, source: UDPEndpoint, interfaceIndex: UInt32) {
        self.message = message
        self.source = source
        self.interfaceIndex = interfaceIndex
    }
}

/// What an mDNS querier or responder sends through, and receives from: UDP multicast sockets
/// in `CastNet`, a network in memory in `CastNetEmbedded`. Received datagrams go to the
/// handler given when the transport was opened, on its owner's loop.
package protocol MDNSDatagramTransport: AnyObject, Sendable {
    /// Multicasts `message` to the group on every interface; failures are ignored (an
    /// interface may have gone down).
    func sendMulticast(_ message: DNSMessage)
    /// Sends `message` to one peer through the interface it was heard on.
    func sendUnicast(_ message: DNSMessage, to destination: UDPEndpoint, interfaceIndex: UInt32)
    /// Stops sending and receiving.
    func close()
}

/// Opens an ``MDNSDatagramTransport`` whose received datagrams go to the handler.
package typealias MDNSTransportOpener =
    @Sendable (
        _ handler: @escaping @Sendable (MDNSDatagram) -> Void
    ) throws -> any MDNSDatagramTransport
