package import CastCore
import CastTime

@testable package import CastEmulator

/// The virtual device's own engine behind a hostile device's numbers: the device behaves as
/// usual, but every JSON payload it sends passes through `rewrite` first (by `type`), so what a
/// sender reads is out of every range while the exchange stays valid.
package struct HostileDeviceEngine: HostedEngine {
    /// Edits one payload the device sends, given its `type`.
    package typealias Rewrite = @Sendable (_ type: String, _ payload: inout JSONValue) -> Void

    package var inner: VirtualDeviceEngine
    package let rewrite: Rewrite

    /// The device runs `inner`; what it sends passes through `rewrite`.
    package init(inner: VirtualDeviceEngine, rewrite: @escaping Rewrite) {
        self.inner = inner
        self.rewrite = rewrite
    }

    package var faults: DeviceFaults {
        get { inner.faults }
        set { inner.faults = newValue }
    }
    package var nextDeadline: DeviceInstant? { inner.nextDeadline }
    package var runningApplication: ReceiverApplication? { inner.runningApplication }

    package mutating func connectionOpened(_ id: ConnectionID, at now: DeviceInstant) -> [DeviceAction] {
        tampered(inner.connectionOpened(id, at: now))
    }

    package mutating func connectionClosed(_ id: ConnectionID, at now: DeviceInstant) -> [DeviceAction] {
        tampered(inner.connectionClosed(id, at: now))
    }

    package mutating func received(
        _ message: CastMessage,
        from id: ConnectionID,
        at now: DeviceInstant
    ) -> [DeviceAction] {
        tampered(inner.received(message, from: id, at: now))
    }

    package mutating func tick(at now: DeviceInstant) -> [DeviceAction] { tampered(inner.tick(at: now)) }

    package mutating func restartApplication(at now: DeviceInstant) -> [DeviceAction] {
        tampered(inner.restartApplication(at: now))
    }

    package mutating func setTLSCertificate(_ der: [UInt8]) { inner.setTLSCertificate(der) }

    package mutating func mediaProbed(
        _ id: UInt64,
        outcome: Result<MediaProbeResult, MediaLoadFailure>,
        at now: DeviceInstant
    ) -> [DeviceAction] {
        tampered(inner.mediaProbed(id, outcome: outcome, at: now))
    }

    private func tampered(_ actions: [DeviceAction]) -> [DeviceAction] {
        actions.map { action in
            guard case .send(let message, let connection) = action, let text = message.payloadUTF8,
                var payload = try? JSONValue(parsing: text), let type = payload["type"]?.stringValue
            else { return action }
            rewrite(type, &payload)
            guard let rewritten = try? JSONPayloadEncoder().encode(payload) else { return action }
            let hostile = CastMessage(
                sourceID: message.sourceID,
                destinationID: message.destinationID,
                namespace: message.namespace,
                text: rewritten
            )
            return .send(hostile, to: connection)
        }
    }
}

extension JSONValue {
    /// Applies `edit` to every element of the array member `key` (a status list).
    package mutating func editEach(_ key: String, _ edit: (inout JSONValue) -> Void) {
        guard var elements = self[key]?.arrayValue else { return }
        for index in elements.indices { edit(&elements[index]) }
        self[key] = .array(elements)
    }
}
