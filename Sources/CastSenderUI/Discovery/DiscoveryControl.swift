import CastCore
import CastSender

/// What the widgets need from discovery, as closures so that tests can stand in for the
/// mDNS-backed ``DiscoveryManager``.
struct DiscoveryControl: Sendable {
    var start: @Sendable () throws -> Void
    var stop: @Sendable () -> Void
    var isActive: @Sendable () -> Bool
    var devices: @Sendable () -> [CastDevice]
    var events: @Sendable () -> AsyncStream<DiscoveryEvent>

    init(
        start: @escaping @Sendable () throws -> Void,
        stop: @escaping @Sendable () -> Void,
        isActive: @escaping @Sendable () -> Bool,
        devices: @escaping @Sendable () -> [CastDevice],
        events: @escaping @Sendable () -> AsyncStream<DiscoveryEvent>
    ) {
        self.start = start
        self.stop = stop
        self.isActive = isActive
        self.devices = devices
        self.events = events
    }

    init(_ manager: DiscoveryManager) {
        self.init(
            start: { try manager.startDiscovery() },
            stop: { manager.stopDiscovery() },
            isActive: { manager.isDiscoveryActive },
            devices: { manager.devices },
            events: { manager.events() }
        )
    }
}
