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

/// What the SDK's tests add to the shared ``InMemoryRig``: the context on the rig's connector
/// and clock (the SDK's internal initializer), and the device's media read from its engine.
extension InMemoryRig {
    /// A rig whose device runs the engine `wrap` makes around the virtual device's own (one
    /// that rewrites what the device sends, for instance).
    static func wrapping(
        name: String = "Memory Device",
        configure: (inout VirtualDeviceConfiguration) -> Void = { _ in },
        engine wrap: @escaping @Sendable (VirtualDeviceEngine) -> any HostedEngine
    ) -> InMemoryRig {
        let configuration = InMemoryRig.configuration(name: name, configure: configure)
        return InMemoryRig { clock, log in
            VirtualDevice(
                configuration: configuration,
                options: InMemoryRig.serverOptions,
                clock: clock,
                log: log,
                advertiser: nil,
                certificateKey: nil
            ) { now in wrap(VirtualDeviceEngine(configuration: configuration, at: now)) }
        }
    }

    func context(_ options: CastOptions) -> CastContext {
        CastContext(options: options, connector: connector, clock: clock, browser: nil, random: { 0.5 })
    }

    /// A context whose device list comes from `browser`, and whose setup documents (what a
    /// device added by address is asked for its name and groups) are those `devices` serve
    /// on their addresses.
    func context(
        _ options: CastOptions,
        browser: any DeviceBrowser,
        setupDocumentsOf devices: [VirtualDevice]
    )
        -> CastContext
    {
        CastContext(
            options: options,
            connector: connector,
            clock: clock,
            browser: browser,
            setupInfo: .documents(of: devices),
            random: { 0.5 }
        )
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
}

extension DeviceSetupInfoSource {
    /// The setup documents `devices` serve at `/setup/eureka_info` on their addresses, read
    /// from the devices themselves (the HTTP route's own document, without the HTTP).
    static func documents(of devices: [VirtualDevice]) -> DeviceSetupInfoSource {
        DeviceSetupInfoSource { host, _ in
            guard let device = devices.first(where: { $0.options.address == host }) else { return nil }
            let info = EurekaInfo(
                identity: device.configuration.identity,
                options: device.options,
                uptime: device.uptime,
                profile: device.configuration.profile,
                groups: device.engineSnapshot?.castingGroups ?? []
            )
            return try? DeviceSetupInfo(jsonBytes: info.bytes)
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
