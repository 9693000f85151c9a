import CastCore
import CastNet
import CastSenderTestSupport
import CastSync
import CastTestSupport
import CastTime
import Dispatch
import Foundation
import Observation

@testable import CastSender
@testable import CastSenderUI

/// A context on a scripted in-memory device with a manual clock, and helpers to wait
/// (bounded) for asynchronous model updates.
struct Harness {
    let device = FakeDevice()
    let clock = ManualCastClock()
    let queue = DispatchQueue(label: "ui-test-callbacks")
    let deviceInfo = CastDevice(
        id: UUID(),
        friendlyName: "Living Room TV",
        addresses: [IPAddress("127.0.0.1")!],
        port: 8009
    )

    func context(configure: (inout CastOptions) -> Void = { _ in }) -> CastContext {
        var options = CastOptions(receiverApplicationID: DiscoveryCriteria.defaultMediaReceiverApplicationID)
        options.callbackQueue = queue
        options.disableDiscoveryAutostart = true
        // The manual clock jumps in large steps: keep heartbeats out of the way.
        options.heartbeatInterval = .seconds(3600)
        options.heartbeatTimeout = .seconds(7200)
        // The scripted device cannot answer device authentication.
        options.acceptUnauthenticatedDevices()
        configure(&options)
        return CastContext(options: options, connector: device, clock: clock, browser: nil, random: { 0.5 })
    }

    /// Waits until the callback queue has run everything queued so far.
    func drain() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }

    /// Waits until `condition` holds of the widget models' state, woken by Observation after
    /// each change of what it reads and by each change of the scripted device; a hang guard
    /// (``TestTiming/hangGuard``) ends a wait that nothing answers.
    /// - Returns: whether `condition` held.
    func waitUntil(_ condition: @escaping @Sendable () -> Bool) async -> Bool {
        await Harness.waitUntil(device: device, condition)
    }

    /// Waits until `condition` holds, woken by Observation (the widget models are
    /// `@Observable`) and, when given, by each change of `device`.
    static func waitUntil(device: FakeDevice? = nil, _ condition: @escaping @Sendable () -> Bool) async -> Bool {
        let met = try? await withDeadline(TestTiming.hangGuard, "a model state") {
            await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    // Each value is computed after a change has been made, never between
                    // Observation's notice of a change and the change itself.
                    for await holds in Observations({ condition() }) where holds { return true }
                    return false
                }
                if let device {
                    group.addTask { await device.changes.wait(until: condition) }
                }
                defer { group.cancelAll() }
                for await holds in group where holds { return true }
                return false
            }
        }
        return met == true || condition()
    }
}

/// A temporary directory removed by its owner.
struct TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cast-ui-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A discovery stand-in: records starts and stops, and emits events the test scripts.
final class FakeDiscovery: Sendable {
    private struct State {
        var active = false
        var starts = 0
        var stops = 0
        var failing = false
        var devices: [CastDevice] = []
        var continuations: [AsyncStream<DiscoveryEvent>.Continuation] = []
    }

    private let state = Locked(State())

    var starts: Int { state.withLock { $0.starts } }
    var stops: Int { state.withLock { $0.stops } }
    var isActive: Bool { state.withLock { $0.active } }

    func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }

    func emit(_ event: DiscoveryEvent) {
        let continuations = state.withLock { state in
            let device = event.device
            switch event.kind {
            case .didInsert: state.devices.append(device)
            case .didUpdate:
                if let index = state.devices.firstIndex(where: { $0.id == device.id }) { state.devices[index] = device }
            case .didRemove: state.devices.removeAll { $0.id == device.id }
            default: break
            }
            return state.continuations
        }
        for continuation in continuations { continuation.yield(event) }
    }

    var control: DiscoveryControl {
        DiscoveryControl(
            start: { [self] in
                let failing = state.withLock { state -> Bool in
                    state.starts += 1
                    if !state.failing { state.active = true }
                    return state.failing
                }
                if failing { throw CastError(.network, "cannot open the mDNS socket") }
            },
            stop: { [self] in
                state.withLock { state in
                    state.stops += 1
                    state.active = false
                }
            },
            isActive: { [self] in isActive },
            devices: { [self] in state.withLock { $0.devices } },
            events: { [self] in
                let (stream, continuation) = AsyncStream<DiscoveryEvent>.makeStream()
                state.withLock { $0.continuations.append(continuation) }
                return stream
            }
        )
    }
}
