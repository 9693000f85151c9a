import CastCore
import CastNetEmbedded
import CastSenderTestSupport
import CastSync
import CastTestSupport
import CastTime
import Dispatch
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender

/// The SDK against a virtual device entirely in memory: the device's engine and the SDK's
/// connection, heartbeat and requests joined by pairs of channels on one ``EmbeddedLoop``. No
/// TLS, no socket, no thread of their own and no real time: frames move when the loop runs,
/// and every timer of both sides (heartbeats, request timeouts, reconnection backoff, the
/// device's buffering and liveness) falls due only when the test advances the loop's clock.
///
/// With no TLS there is no certificate to bind device authentication to, so the SDK's
/// options switch it off explicitly; authentication over TLS stays in the loopback suites.
struct InMemoryRig {
    let loop = EmbeddedLoop()
    let device: VirtualDevice
    /// Every frame the device received and sent, and its connection events.
    let log = DeviceFrameLog()
    let queue = DispatchQueue(label: "in-memory-callbacks")
    /// Connections the SDK opened.
    let connects = Locked(0)
    /// When set, connection attempts fail as a refused TCP connect would.
    let refusesConnections = Locked(false)
    /// The port the device answers on; a connection to another is refused.
    let port = 8009

    var clock: ManualCastClock { loop.clock }

    /// A device with `configure` applied to its configuration; buffering takes 200 ms of the
    /// loop's clock, as by default.
    init(configure: (inout VirtualDeviceConfiguration) -> Void = { _ in }) {
        var configuration = VirtualDeviceConfiguration(
            identity: DeviceIdentity(friendlyName: "Memory Device", deviceID: "0123456789abcdef0123456789abcdef")
        )
        configure(&configuration)
        device = VirtualDevice(
            configuration: configuration,
            options: DeviceServerOptions(address: "127.0.0.1"),
            clock: loop.clock,
            log: log
        )
    }

    /// Where the SDK connects: the address is only a name here.
    var target: CastDevice {
        CastDevice(
            id: UUID(),
            friendlyName: "Memory Device",
            addresses: [IPAddress("127.0.0.1")!],
            port: UInt16(port)
        )
    }

    /// Opens a pair of channels for each SDK connection and gives one end to the device.
    var connector: ChannelTransportConnector {
        let (loop, device, connects, refuses) = (self.loop, self.device, self.connects, self.refusesConnections)
        let devicePort = self.port
        return ChannelTransportConnector(clock: loop.clock) { host, port throws(CastError) in
            connects.withLock { $0 += 1 }
            if refuses.withLock({ $0 }) || port != devicePort {
                throw CastError(.network, "\(host):\(port) refused the connection")
            }
            let (sender, receiver) = EmbeddedByteChannel.pair(loop: loop)
            device.attach(receiver)
            return sender
        }
    }

    func options(configure: (inout CastOptions) -> Void = { _ in }) -> CastOptions {
        var options = CastOptions(receiverApplicationID: DiscoveryCriteria.defaultMediaReceiverApplicationID)
        options.disableDiscoveryAutostart = true
        options.callbackQueue = queue
        options.acceptUnauthenticatedDevices()
        options.reconnectBackoff = ReconnectBackoff(initialDelay: .seconds(1), jitter: 0, maximumAttempts: 3)
        configure(&options)
        return options
    }

    func context(_ options: CastOptions) -> CastContext {
        CastContext(options: options, connector: connector, clock: clock, browser: nil, random: { 0.5 })
    }

    /// Runs `operation`, running the loop's work as it waits (a hang guard of
    /// ``TestTiming/patience`` of real time stands behind it; no time of the loop passes).
    func run<T: Sendable>(
        _ what: String = "the operation",
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withDeadline(TestTiming.hangGuard, what) { try await loop.run(while: operation) }
    }

    /// Runs the loop's work as it comes until `condition` holds: for a step the SDK takes in
    /// a task of its own (sending a request) whose effect the loop then carries (the device
    /// receiving it).
    func run(until what: String, _ condition: @escaping @Sendable () -> Bool) async throws {
        try await withDeadline(TestTiming.hangGuard, what) { try await loop.run(until: condition) }
    }

    /// Moves the loop's clock: every timer of the SDK and the device due by then fires, and
    /// the frames each one causes are exchanged before the next.
    func advance(by duration: Duration) {
        loop.advance(by: duration)
    }

    /// The device's media status now, from its engine.
    var deviceMedia: MediaStatus? {
        device.engineSnapshot?.mediaStatus(at: device.engineNow)
    }

    /// The device's media queue now, from its engine (status messages list items only for
    /// queues of two or more).
    var deviceQueue: [QueueItem]? {
        device.engineSnapshot?.application?.player?.session?.queue?.items
    }

    /// Waits until the callback queue has run everything queued so far.
    func drain() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }
}

/// Session events in order, and a way to await one.
final class SessionEventLog: SessionManagerListener, Sendable {
    private struct State {
        var names: [String] = []
        var errors: [CastError?] = []
        var waiters: [(id: Int, name: String, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var nextWaiter = 0
    }

    private let state = Locked(State())

    var names: [String] { state.withLock { $0.names } }
    var errors: [CastError?] { state.withLock { $0.errors } }

    /// Suspends until `name` has been received `count` times, or the task is cancelled.
    func wait(for name: String, count: Int = 1) async {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.names.count(where: { $0 == name }) >= count || Task.isCancelled { return true }
                    state.waiters.append((id, name, count, continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume()
        }
    }

    private func record(_ name: String, error: CastError?? = nil) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.names.append(name)
            if let error { state.errors.append(error) }
            var ready: [CheckedContinuation<Void, Never>] = []
            state.waiters.removeAll { waiter in
                guard state.names.count(where: { $0 == waiter.name }) >= waiter.count else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    func sessionManager(_ manager: SessionManager, willStart session: CastSession) { record("willStart") }
    func sessionManager(_ manager: SessionManager, didStart session: CastSession) { record("didStart") }
    func sessionManager(_ manager: SessionManager, didFailToStart session: CastSession, withError error: CastError) {
        record("didFailToStart", error: .some(error))
    }
    func sessionManager(_ manager: SessionManager, willEnd session: CastSession) { record("willEnd") }
    func sessionManager(_ manager: SessionManager, didEnd session: CastSession, withError error: CastError?) {
        record("didEnd", error: .some(error))
    }
    func sessionManager(_ manager: SessionManager, didSuspend session: CastSession, with reason: SessionSuspendReason) {
        record("didSuspend")
    }
    func sessionManager(_ manager: SessionManager, willResume session: CastSession) { record("willResume") }
    func sessionManager(_ manager: SessionManager, didResume session: CastSession) { record("didResume") }
    func sessionManager(_ manager: SessionManager, didFailToResume session: CastSession, withError error: CastError) {
        record("didFailToResume", error: .some(error))
    }
}
