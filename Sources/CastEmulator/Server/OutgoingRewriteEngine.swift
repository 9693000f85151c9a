import CastCore
import CastTime

/// An engine whose every outgoing message passes through `rewrite` first; everything else is
/// the inner engine's. The hostile-device rigs of the SDK, widget and command-line suites run
/// the real engine behind it, so a sender reads out-of-range numbers in an exchange that is
/// otherwise valid. Internal: reached through `@testable import`, never by an app.
struct OutgoingRewriteEngine: HostedEngine {
    var inner: any HostedEngine
    let rewrite: @Sendable (CastMessage) -> CastMessage

    init(inner: any HostedEngine, rewrite: @escaping @Sendable (CastMessage) -> CastMessage) {
        self.inner = inner
        self.rewrite = rewrite
    }

    var faults: DeviceFaults {
        get { inner.faults }
        set { inner.faults = newValue }
    }
    var nextDeadline: DeviceInstant? { inner.nextDeadline }
    var runningApplication: ReceiverApplication? { inner.runningApplication }
    var currentInputState: DeviceInputState? { inner.currentInputState }

    mutating func connectionOpened(_ id: ConnectionID, at now: DeviceInstant) -> [DeviceAction] {
        rewritten(inner.connectionOpened(id, at: now))
    }

    mutating func connectionClosed(_ id: ConnectionID, at now: DeviceInstant) -> [DeviceAction] {
        rewritten(inner.connectionClosed(id, at: now))
    }

    mutating func received(_ message: CastMessage, from id: ConnectionID, at now: DeviceInstant) -> [DeviceAction] {
        rewritten(inner.received(message, from: id, at: now))
    }

    mutating func tick(at now: DeviceInstant) -> [DeviceAction] { rewritten(inner.tick(at: now)) }

    mutating func restartApplication(at now: DeviceInstant) -> [DeviceAction] {
        rewritten(inner.restartApplication(at: now))
    }

    func snapshot(at now: DeviceInstant) -> VirtualDeviceSnapshot? { inner.snapshot(at: now) }

    mutating func restore(_ snapshot: VirtualDeviceSnapshot, at now: DeviceInstant) -> [DeviceAction] {
        rewritten(inner.restore(snapshot, at: now))
    }

    mutating func setInputState(_ state: DeviceInputState, at now: DeviceInstant) -> [DeviceAction] {
        rewritten(inner.setInputState(state, at: now))
    }

    mutating func setTLSCertificate(_ der: [UInt8]) { inner.setTLSCertificate(der) }

    mutating func multizoneUpdate(_ update: MultizoneUpdate, at now: DeviceInstant) -> [DeviceAction] {
        rewritten(inner.multizoneUpdate(update, at: now))
    }

    mutating func mediaProbed(
        _ id: UInt64,
        outcome: Result<MediaProbeResult, MediaLoadFailure>,
        at now: DeviceInstant
    ) -> [DeviceAction] {
        rewritten(inner.mediaProbed(id, outcome: outcome, at: now))
    }

    func isFollowingStream(_ id: UInt64) -> Bool { inner.isFollowingStream(id) }
    func isProbePending(_ id: UInt64) -> Bool { inner.isProbePending(id) }

    mutating func mediaStreamEnded(_ id: UInt64, mediaSeconds: Double?, at now: DeviceInstant) -> [DeviceAction] {
        rewritten(inner.mediaStreamEnded(id, mediaSeconds: mediaSeconds, at: now))
    }

    private func rewritten(_ actions: [DeviceAction]) -> [DeviceAction] {
        actions.map { action in
            guard case .send(let message, let connection) = action else { return action }
            return .send(rewrite(message), to: connection)
        }
    }
}
