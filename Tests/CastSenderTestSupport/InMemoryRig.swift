package import CastCore
package import CastEmulator
package import CastNetEmbedded
package import CastSender
package import CastSync
import CastTestSupport
package import CastTime
package import Dispatch
import Foundation

/// The SDK against a virtual device entirely in memory: the device's engine and the SDK's
/// connection, heartbeat and requests joined by pairs of channels on one ``EmbeddedLoop``. No
/// TLS, no socket, no thread of their own and no real time: frames move when the loop runs,
/// and every timer of both sides (heartbeats, request timeouts, reconnection backoff, the
/// device's buffering and liveness) falls due only when the test advances the loop's clock.
///
/// With no TLS there is no certificate to bind device authentication to, so the SDK's
/// options switch it off explicitly; authentication over TLS stays in the loopback suites.
///
/// The context itself is made by each test target (`context(_:)`), which reaches the SDK's
/// internal initializer that takes the connector and the clock.
package struct InMemoryRig: Sendable {
    package let loop = EmbeddedLoop()
    package let device: VirtualDevice
    /// Every frame the device received and sent, and its connection events.
    package let log = FrameRecorder()
    package let queue = DispatchQueue(label: "in-memory-callbacks")
    /// Connections the SDK opened.
    package let connects = Locked(0)
    /// When set, connection attempts fail as a refused TCP connect would.
    package let refusesConnections = Locked(false)
    /// The port the device answers on; a connection to another is refused.
    package let port = 8009
    /// Devices the connector reaches at an address and port of their own (``serve(_:host:port:)``),
    /// checked before ``device``.
    package let routes = Locked<[String: VirtualDevice]>([:])

    package var clock: ManualCastClock { loop.clock }

    /// A device named `name` with `configure` applied to its configuration; buffering takes
    /// 200 ms of the loop's clock, as by default.
    package init(
        name: String = "Memory Device",
        configure: (inout VirtualDeviceConfiguration) -> Void = { _ in }
    ) {
        device = VirtualDevice(
            configuration: Self.configuration(name: name, configure: configure),
            options: Self.serverOptions,
            clock: loop.clock,
            log: log
        )
    }

    /// The configuration of a device named `name`, with `configure` applied.
    package static func configuration(
        name: String = "Memory Device",
        configure: (inout VirtualDeviceConfiguration) -> Void = { _ in }
    ) -> VirtualDeviceConfiguration {
        var configuration = VirtualDeviceConfiguration(
            identity: DeviceIdentity(friendlyName: name, deviceID: "0123456789abcdef0123456789abcdef")
        )
        configure(&configuration)
        return configuration
    }

    /// The device's server options: its address is only a name, nothing listens.
    package static var serverOptions: DeviceServerOptions { DeviceServerOptions(address: "127.0.0.1") }

    /// A rig around the device `make` builds on the loop's clock and the rig's frame log (a
    /// device with another engine behind it, for instance).
    package init(device make: (_ clock: ManualCastClock, _ log: FrameRecorder) -> VirtualDevice) {
        device = make(loop.clock, log)
    }

    /// Where the SDK connects: the address is only a name here.
    package var target: CastDevice {
        CastDevice(
            id: UUID(),
            friendlyName: device.configuration.identity.friendlyName,
            addresses: [IPAddress("127.0.0.1")!],
            port: UInt16(port)
        )
    }

    /// Makes `device` answer connections to `host`:`port` (several devices on one loop: a
    /// speaker group and its members).
    package func serve(_ device: VirtualDevice, host: String, port: Int) {
        routes.withLock { $0["\(host):\(port)"] = device }
    }

    /// Opens a pair of channels for each SDK connection and gives one end to the device the
    /// address and port name (a device of ``routes``, or else ``device`` on ``port``).
    package var connector: ChannelTransportConnector {
        let (loop, device, connects, refuses) = (self.loop, self.device, self.connects, self.refusesConnections)
        let (devicePort, routes) = (self.port, self.routes)
        return ChannelTransportConnector(clock: loop.clock) { host, port throws(CastError) in
            connects.withLock { $0 += 1 }
            let routed = routes.withLock { $0["\(host):\(port)"] }
            guard !refuses.withLock({ $0 }), let answering = routed ?? (port == devicePort ? device : nil) else {
                throw CastError(.network, "\(host):\(port) refused the connection")
            }
            let (sender, receiver) = EmbeddedByteChannel.pair(loop: loop)
            answering.attach(receiver)
            return sender
        }
    }

    package func options(configure: (inout CastOptions) -> Void = { _ in }) -> CastOptions {
        var options = CastOptions(receiverApplicationID: DiscoveryCriteria.defaultMediaReceiverApplicationID)
        options.disableDiscoveryAutostart = true
        options.callbackQueue = queue
        options.acceptUnauthenticatedDevices()
        options.reconnectBackoff = ReconnectBackoff(initialDelay: .seconds(1), jitter: 0, maximumAttempts: 3)
        configure(&options)
        return options
    }

    /// Runs `operation`, running the loop's work as it waits (a hang guard of
    /// ``TestTiming/hangGuard`` of real time stands behind it; no time of the loop passes).
    package func run<T: Sendable>(
        _ what: String = "the operation",
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withDeadline(TestTiming.hangGuard, what) { try await loop.run(while: operation) }
    }

    /// Runs the loop's work as it comes until `condition` holds: for a step the SDK takes in
    /// a task of its own (sending a request) whose effect the loop then carries (the device
    /// receiving it).
    package func run(until what: String, _ condition: @escaping @Sendable () -> Bool) async throws {
        try await withDeadline(TestTiming.hangGuard, what) { try await loop.run(until: condition) }
    }

    /// Runs the loop's work as it comes until `condition` holds, checking it now and at each
    /// value `updates` delivers: for state that changes off the loop, after the loop's work
    /// (a widget model's state, set on the callback queue or in a task of the model's own).
    /// Subscribe to `updates` before the step whose effect it awaits, so no change is missed.
    /// - Throws: ``DeadlineExceeded`` when the stream ends first, or the hang guard runs out.
    package func run<Value: Sendable>(
        until what: String,
        watching updates: AsyncStream<Value>,
        _ condition: @escaping @Sendable () -> Bool
    ) async throws {
        try await run(what) {
            if condition() { return }
            for await _ in updates where condition() { return }
            throw DeadlineExceeded(what: "\(what) (the updates ended first)")
        }
    }

    /// Moves the loop's clock: every timer of the SDK and the device due by then fires, and
    /// the frames each one causes are exchanged before the next.
    package func advance(by duration: Duration) {
        loop.advance(by: duration)
    }

    /// Waits until the callback queue has run everything queued so far.
    package func drain() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }
}
