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

/// The status probe's device authentication, over real TLS: the probe authenticates the
/// device as a session does, bound to the certificate the TLS handshake presented, so these
/// stay on sockets (what the probe reads and its deadlines are checked in memory, in
/// ``ReceiverStatusProbeTests``).
@Suite struct ReceiverStatusProbeAuthenticationTests {
    /// A sender that requires authentication and trusts the virtual device's root.
    static func context(_ rig: EndToEndRig) -> CastContext {
        CastContext(
            options: rig.options {
                $0.deviceAuthentication.mode = .required
                $0.requestTimeout = TestTiming.patience
            }
        )
    }

    /// A device that proves itself is read after the challenge, on a connection of its own.
    @Test func anAuthenticatedDeviceIsReadAfterTheChallenge() async throws {
        let rig = try await EndToEndRig.start()
        defer { Task { await rig.device.stop() } }
        let context = Self.context(rig)

        let status = try await context.sessionManager.receiverStatus(of: rig.target)

        #expect(status.applications?.map(\.appID) == [ReceiverAppDefinition.backdrop.appID])
        #expect(rig.log.inbound(type: "GET_STATUS").count == 1)
        #expect(rig.log.inbound(type: "LAUNCH").isEmpty)
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
