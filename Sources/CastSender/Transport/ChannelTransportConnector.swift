package import CastNet
package import CastNetCore
package import CastTime

/// Connects over byte channels someone else opens: the framed ``CastConnection`` and the
/// `CastMessage` decoding of ``TLSTransportConnector``, without its TCP and TLS. Tests hand it
/// channels in memory wired to a virtual device, so the SDK's sessions, requests and
/// heartbeats run against the device's engine with no socket, thread or real time.
package struct ChannelTransportConnector: CastTransportConnector {
    /// Opens the channel to `host`:`port`: active, with reading off and no handler.
    package typealias Open = @Sendable (_ host: String, _ port: Int) async throws(CastError) -> any ByteChannel

    private let configuration: CastConnectionConfiguration
    private let clock: any CastClock
    private let open: Open

    /// Creates a connector.
    /// - Parameters:
    ///   - configuration: the limits of each connection (its TLS settings are not used).
    ///   - clock: the clock of the connections' frame timeout.
    ///   - open: opens each connection's channel.
    package init(
        configuration: CastConnectionConfiguration = CastConnectionConfiguration(),
        clock: any CastClock,
        open: @escaping Open
    ) {
        self.configuration = configuration
        self.clock = clock
        self.open = open
    }

    package func connect(
        host: String,
        port: Int,
        onEvent: @escaping @Sendable (CastTransportEvent) -> Void
    ) async throws(CastError) -> any CastTransport {
        let channel = try await open(host, port)
        let connection = CastConnection(channel: channel, configuration: configuration, clock: clock)
        return TLSTransportConnector.transport(over: connection, host: host, port: port, onEvent: onEvent)
    }
}
