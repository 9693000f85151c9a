import CastCore
import CastSenderTestSupport
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender

/// ``SessionManager/receiverStatus(of:host:port:timeout:)`` and
/// ``SessionManager/applicationAvailability(of:on:host:port:timeout:)`` against the virtual
/// device in memory (``InMemoryRig``): the device's state is read on a connection of its own,
/// nothing is launched, and a device that misbehaves gives a typed error, its deadline on the
/// loop's clock. That the probe authenticates the device as a session does is checked over
/// TLS, in ``ReceiverStatusProbeAuthenticationTests``.
@Suite struct ReceiverStatusProbeTests {
    /// The virtual device's engine with its outgoing receiver payloads passed through `edit`
    /// (by `type`); `nil` from `edit` drops the message (a device that never answers).
    struct EditingEngine: HostedEngine {
        typealias Edit = @Sendable (_ type: String, _ payload: JSONValue) -> JSONValue?

        var inner: VirtualDeviceEngine
        let edit: Edit

        var faults: DeviceFaults {
            get { inner.faults }
            set { inner.faults = newValue }
        }
        var nextDeadline: DeviceInstant? { inner.nextDeadline }
        var runningApplication: ReceiverApplication? { inner.runningApplication }

        mutating func connectionOpened(_ id: ConnectionID, at now: DeviceInstant) -> [DeviceAction] {
            edited(inner.connectionOpened(id, at: now))
        }

        mutating func connectionClosed(_ id: ConnectionID, at now: DeviceInstant) -> [DeviceAction] {
            edited(inner.connectionClosed(id, at: now))
        }

        mutating func received(_ message: CastMessage, from id: ConnectionID, at now: DeviceInstant) -> [DeviceAction] {
            edited(inner.received(message, from: id, at: now))
        }

        mutating func tick(at now: DeviceInstant) -> [DeviceAction] { edited(inner.tick(at: now)) }

        mutating func restartApplication(at now: DeviceInstant) -> [DeviceAction] {
            edited(inner.restartApplication(at: now))
        }

        mutating func setTLSCertificate(_ der: [UInt8]) { inner.setTLSCertificate(der) }

        mutating func mediaProbed(
            _ id: UInt64,
            outcome: Result<MediaProbeResult, MediaLoadFailure>,
            at now: DeviceInstant
        ) -> [DeviceAction] {
            edited(inner.mediaProbed(id, outcome: outcome, at: now))
        }

        private func edited(_ actions: [DeviceAction]) -> [DeviceAction] {
            actions.compactMap { action in
                guard case .send(let message, let connection) = action, message.namespace == .receiver,
                    let text = message.payloadUTF8, let payload = try? JSONValue(parsing: text),
                    let type = payload["type"]?.stringValue ?? payload["responseType"]?.stringValue
                else { return action }
                guard let payload = edit(type, payload) else { return nil }
                guard let rewritten = try? JSONPayloadEncoder().encode(payload) else { return action }
                let edited = CastMessage(
                    sourceID: message.sourceID,
                    destinationID: message.destinationID,
                    namespace: message.namespace,
                    text: rewritten
                )
                return .send(edited, to: connection)
            }
        }
    }

    /// A rig whose device passes its outgoing receiver payloads through `edit`, if given.
    static func rig(editing edit: EditingEngine.Edit? = nil) -> InMemoryRig {
        guard let edit else { return InMemoryRig() }
        return InMemoryRig.wrapping { engine in EditingEngine(inner: engine, edit: edit) }
    }

    /// Runs the probe in a task of its own, for a test that moves the clock while it waits.
    final class Probe: Sendable {
        let task: Task<ReceiverStatus, any Error>
        private let ended = Locked(false)

        init(_ operation: @escaping @Sendable () async throws -> ReceiverStatus) {
            let ended = self.ended
            task = Task {
                defer { ended.withLock { $0 = true } }
                return try await operation()
            }
        }

        var hasEnded: Bool { ended.withLock { $0 } }
    }

    @Test func readsTheStatusOfAnIdleDeviceWithoutLaunchingAnything() async throws {
        let rig = Self.rig()
        let context = rig.context(rig.options())

        let status = try await rig.run("the probe") { try await context.sessionManager.receiverStatus(of: rig.target) }

        #expect(status.applications?.map(\.appID) == [ReceiverAppDefinition.backdrop.appID])
        #expect(status.volume?.level == rig.device.configuration.volume.level)
        #expect(context.sessionManager.currentSession == nil)
        #expect(rig.log.inbound(type: "GET_STATUS").count == 1)
        #expect(rig.log.inbound(type: "LAUNCH").isEmpty)
    }

    @Test func readsTheAppASessionLaunchedAndLeavesTheSessionAlone() async throws {
        let rig = Self.rig()
        let context = rig.context(rig.options())
        let session = try await rig.run("the session start") {
            try await context.sessionManager.startSession(with: rig.target)
        }

        let status = try await rig.run("the probe") { try await context.sessionManager.receiverStatus(of: rig.target) }

        let app = try #require(status.applications?.first)
        #expect(app.appID == DiscoveryCriteria.defaultMediaReceiverApplicationID)
        #expect(app.sessionID == session.sessionID)
        #expect(context.sessionManager.currentSession === session)
        #expect(session.connectionState == .connected)
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
        #expect(rig.connects.withLock { $0 } == 2, "the probe on a connection of its own")
        try await rig.run("the session end") { await context.sessionManager.endSession() }
    }

    @Test func asksWhichAppsTheDeviceCanRun() async throws {
        let rig = Self.rig()
        let context = rig.context(rig.options())

        let availability = try await rig.run("the availability probe") {
            try await context.sessionManager.applicationAvailability(
                of: [DiscoveryCriteria.defaultMediaReceiverApplicationID, "0BADC0DE"],
                on: rig.target
            )
        }

        #expect(
            availability == [
                DiscoveryCriteria.defaultMediaReceiverApplicationID: .available, "0BADC0DE": .unavailable,
            ]
        )
        #expect(rig.log.inbound(type: "LAUNCH").isEmpty)
        await #expect(throws: CastError(.invalidRequest, "")) {
            try await rig.run("an empty availability probe") {
                try await context.sessionManager.applicationAvailability(of: [], on: rig.target)
            }
        }
    }

    /// A device reporting a volume out of every range and an app list with an absurd entry:
    /// the call returns, with the volume brought into range as a session brings it.
    @Test func aHostileStatusComesBackInRange() async throws {
        let rig = Self.rig { type, payload in
            guard type == "RECEIVER_STATUS" else { return payload }
            var payload = payload
            payload["status"]?["volume"]?["level"] = .double(1e300)
            payload["status"]?["volume"]?["stepInterval"] = .double(-1e300)
            payload["status"]?["isStandBy"] = true
            payload["status"]?["applications"] = [
                ["appId": .string(String(repeating: "A", count: 4_000)), "displayName": "\u{1B}[2J"]
            ]
            return payload
        }
        let context = rig.context(rig.options())

        let status = try await rig.run("the probe") { try await context.sessionManager.receiverStatus(of: rig.target) }

        #expect(status.volume?.level == 1)
        #expect(status.volume?.stepInterval == 0)
        #expect(status.isStandBy == true)
        #expect(status.applications?.first?.appID.count == 4_000)
    }

    /// A status whose members have the wrong types cannot be decoded, so it answers nothing:
    /// the call ends at its deadline with a timeout, not a crash.
    @Test func anUndecodableStatusEndsInATimeout() async throws {
        let rig = Self.rig { type, payload in
            guard type == "RECEIVER_STATUS" else { return payload }
            var payload = payload
            payload["status"] = ["applications": "all of them", "volume": [1, 2, 3]]
            return payload
        }
        let context = rig.context(rig.options())
        let probe = Probe { try await context.sessionManager.receiverStatus(of: rig.target, timeout: .seconds(1)) }
        try await rig.run(until: "the device's undecodable answer") {
            !rig.log.outbound(type: "RECEIVER_STATUS").isEmpty
        }
        rig.advance(by: .milliseconds(999))
        #expect(!probe.hasEnded, "an answer it cannot read does not end the call")
        rig.advance(by: .milliseconds(1))
        let result = try await rig.run("the probe's end") { await probe.task.result }
        if case .failure(let error) = result {
            #expect((error as? CastError)?.code == .timeout)
        } else {
            Issue.record("a status that cannot be decoded cannot be returned")
        }
    }

    /// A device that connects and then never answers `GET_STATUS`.
    @Test func aDeviceThatNeverAnswersTimesOut() async throws {
        let rig = Self.rig { type, payload in type == "RECEIVER_STATUS" ? nil : payload }
        let context = rig.context(rig.options())
        let probe = Probe {
            try await context.sessionManager.receiverStatus(of: rig.target, timeout: .milliseconds(500))
        }
        try await rig.run(until: "the GET_STATUS reaches the device") { !rig.log.inbound(type: "GET_STATUS").isEmpty }
        rig.advance(by: .milliseconds(499))
        #expect(!probe.hasEnded)
        rig.advance(by: .milliseconds(1))
        let result = try await rig.run("the probe's end") { await probe.task.result }
        if case .failure(let error) = result {
            #expect((error as? CastError)?.code == .timeout)
        } else {
            Issue.record("a device that never answers cannot give a status")
        }
        // The same device answers what it is not told to drop.
        let availability = try await rig.run("the availability probe") {
            try await context.sessionManager.applicationAvailability(
                of: [DiscoveryCriteria.defaultMediaReceiverApplicationID],
                on: rig.target
            )
        }
        #expect(availability == [DiscoveryCriteria.defaultMediaReceiverApplicationID: .available])
    }
}
