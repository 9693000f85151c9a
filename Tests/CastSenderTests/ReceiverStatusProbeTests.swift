import CastAuth
import CastCore
import CastNet
import CastSenderTestSupport
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender

/// ``SessionManager/receiverStatus(of:host:port:timeout:)`` and
/// ``SessionManager/applicationAvailability(of:on:host:port:timeout:)`` against the virtual
/// device over real TLS, with device authentication required: the device's state is read on a
/// connection of its own, nothing is launched, and a device that misbehaves gives a typed error.
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

    static func rig(editing edit: EditingEngine.Edit? = nil) async throws -> EndToEndRig {
        guard let edit else { return try await EndToEndRig.start() }
        return try await EndToEndRig.start(engine: { engine -> any HostedEngine in
            EditingEngine(inner: engine, edit: edit)
        })
    }

    /// A sender that requires authentication and trusts the virtual device's root.
    static func context(_ rig: EndToEndRig, configure: (inout CastOptions) -> Void = { _ in }) -> CastContext {
        CastContext(
            options: rig.options {
                $0.deviceAuthentication.mode = .required
                $0.requestTimeout = TestTiming.patience
                configure(&$0)
            }
        )
    }

    @Test func readsTheStatusOfAnIdleDeviceWithoutLaunchingAnything() async throws {
        let rig = try await Self.rig()
        defer { Task { await rig.device.stop() } }
        let context = Self.context(rig)

        let status = try await context.sessionManager.receiverStatus(of: rig.target)

        #expect(status.applications?.map(\.appID) == [ReceiverAppDefinition.backdrop.appID])
        #expect(status.volume?.level == rig.device.configuration.volume.level)
        #expect(context.sessionManager.currentSession == nil)
        #expect(rig.log.inbound(type: "GET_STATUS").count == 1)
        #expect(rig.log.inbound(type: "LAUNCH").isEmpty)
    }

    @Test func readsTheAppASessionLaunchedAndLeavesTheSessionAlone() async throws {
        let rig = try await Self.rig()
        defer { Task { await rig.device.stop() } }
        let context = Self.context(rig)
        let session = try await context.sessionManager.startSession(with: rig.target)

        let status = try await context.sessionManager.receiverStatus(of: rig.target)

        let app = try #require(status.applications?.first)
        #expect(app.appID == DiscoveryCriteria.defaultMediaReceiverApplicationID)
        #expect(app.sessionID == session.sessionID)
        #expect(context.sessionManager.currentSession === session)
        #expect(session.connectionState == .connected)
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
        await context.sessionManager.endSession()
    }

    @Test func asksWhichAppsTheDeviceCanRun() async throws {
        let rig = try await Self.rig()
        defer { Task { await rig.device.stop() } }
        let context = Self.context(rig)

        let availability = try await context.sessionManager.applicationAvailability(
            of: [DiscoveryCriteria.defaultMediaReceiverApplicationID, "0BADC0DE"],
            on: rig.target
        )

        #expect(
            availability == [
                DiscoveryCriteria.defaultMediaReceiverApplicationID: .available, "0BADC0DE": .unavailable,
            ]
        )
        #expect(rig.log.inbound(type: "LAUNCH").isEmpty)
        await #expect(throws: CastError(.invalidRequest, "")) {
            try await context.sessionManager.applicationAvailability(of: [], on: rig.target)
        }
    }

    /// A device reporting a volume out of every range and an app list with an absurd entry:
    /// the call returns, with the volume brought into range as a session brings it.
    @Test func aHostileStatusComesBackInRange() async throws {
        let rig = try await Self.rig { type, payload in
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
        defer { Task { await rig.device.stop() } }
        let context = Self.context(rig)

        let status = try await context.sessionManager.receiverStatus(of: rig.target)

        #expect(status.volume?.level == 1)
        #expect(status.volume?.stepInterval == 0)
        #expect(status.isStandBy == true)
        #expect(status.applications?.first?.appID.count == 4_000)
    }

    /// A status whose members have the wrong types cannot be decoded, so it answers nothing:
    /// the call ends at its deadline with a timeout, not a crash.
    @Test func anUndecodableStatusEndsInATimeout() async throws {
        let rig = try await Self.rig { type, payload in
            guard type == "RECEIVER_STATUS" else { return payload }
            var payload = payload
            payload["status"] = ["applications": "all of them", "volume": [1, 2, 3]]
            return payload
        }
        defer { Task { await rig.device.stop() } }
        let context = Self.context(rig)

        let error = await #expect(throws: CastError.self) {
            try await context.sessionManager.receiverStatus(of: rig.target, timeout: .seconds(1))
        }
        #expect(error?.code == .timeout)
    }

    /// A device that authenticates and then never answers `GET_STATUS`.
    @Test func aDeviceThatNeverAnswersTimesOut() async throws {
        let rig = try await Self.rig { type, payload in type == "RECEIVER_STATUS" ? nil : payload }
        defer { Task { await rig.device.stop() } }
        let context = Self.context(rig)

        let error = await #expect(throws: CastError.self) {
            try await context.sessionManager.receiverStatus(of: rig.target, timeout: .milliseconds(500))
        }
        #expect(error?.code == .timeout)
        // The same device answers what it is not told to drop.
        let availability = try await context.sessionManager.applicationAvailability(
            of: [DiscoveryCriteria.defaultMediaReceiverApplicationID],
            on: rig.target
        )
        #expect(availability == [DiscoveryCriteria.defaultMediaReceiverApplicationID: .available])
    }

    /// A TLS peer that completes the handshake and then says nothing at all, not even to the
    /// device-auth challenge: the one deadline bounds connecting and authenticating too.
    @Test func aPeerSilentFromTheStartTimesOut() async throws {
        let identity = try SelfSignedCertificate.generate(commonName: "silent", key: EndToEndRig.tlsKey)
        let accepted = Locked<[CastConnection]>([])
        let listener = try CastListener(address: .loopbackIPv4(), tls: TLSServerConfiguration(identity)) {
            connection in accepted.withLock { $0.append(connection) }
        }
        defer {
            listener.close()
            for connection in accepted.withLock({ $0 }) { connection.close() }
        }
        let device = CastDevice(
            id: UUID(),
            friendlyName: "Silent",
            addresses: [IPAddress("127.0.0.1")!],
            port: UInt16(listener.localAddress.port)
        )
        var options = CastOptions(receiverApplicationID: DiscoveryCriteria.defaultMediaReceiverApplicationID)
        options.disableDiscoveryAutostart = true
        options.deviceAuthentication = .required
        // The challenge's own timeout is far past the probe's deadline.
        options.deviceAuthenticationTimeout = .seconds(3_600)
        let context = CastContext(options: options)

        let error = await #expect(throws: CastError.self) {
            try await context.sessionManager.receiverStatus(of: device, timeout: .milliseconds(500))
        }
        #expect(error?.code == .timeout)
    }

    /// The probe authenticates as a session does: a device that cannot prove itself is
    /// refused before anything is asked.
    @Test func aDeviceThatFailsAuthenticationIsRefusedBeforeGetStatus() async throws {
        let rig = try await EndToEndRig.start(configure: { $0.deviceAuthentication = .unavailable })
        defer { Task { await rig.device.stop() } }
        let context = Self.context(rig)

        let error = await #expect(throws: CastError.self) {
            try await context.sessionManager.receiverStatus(of: rig.target)
        }
        #expect(error?.code == .deviceAuthentication)
        #expect(rig.log.inbound(type: "GET_STATUS").isEmpty)
        #expect(rig.log.inbound(type: "CONNECT").isEmpty)
    }
}
