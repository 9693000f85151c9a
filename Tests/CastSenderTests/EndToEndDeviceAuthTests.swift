import CastAuth
import CastCore
import CastCrypto
import CastNet
import CastSenderTestSupport
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender

/// Device authentication between the SDK and the virtual device over real TLS, with the
/// Open Screen `receiver/channel` credentials and both clocks on 2019-12-17 (inside the chain's
/// validity).
@Suite(.requires(.openScreenTestData)) struct EndToEndDeviceAuthTests {
    static let day = Date(timeIntervalSince1970: 1_576_540_800)  // 2019-12-17T00:00:00Z

    /// What the device proves itself with.
    enum DeviceCredentials {
        case none
        case testChain
        case wrongKey
    }

    static var deviceKey: PrivateKey {
        get throws { try PrivateKey(pemEncoded: CastTestData.text("receiver/channel/device_key.pem")) }
    }
    static var deviceChain: [Certificate] {
        get throws { try Certificate.certificates(pemEncoded: CastTestData.text("receiver/channel/device_chain.pem")) }
    }

    /// A device answering challenges with `credentials`, its clock on ``day``.
    static func device(
        _ credentials: DeviceCredentials,
        configure: (inout VirtualDeviceConfiguration) -> Void = { _ in }
    ) async throws -> EndToEndRig {
        let key: PrivateKey? =
            switch credentials {
            case .none: nil
            case .testChain: try deviceKey
            case .wrongKey: EndToEndRig.tlsKey
            }
        let chain = try deviceChain
        // The responder signs over the TLS certificate, which exists once the device started.
        let tlsCertificate = Locked<[UInt8]>([])
        let rig = try await EndToEndRig.start(
            currentDate: { Self.day },
            configure: { configuration in
                configure(&configuration)
                guard let key else {
                    configuration.deviceAuthentication = .unavailable
                    return
                }
                configuration.deviceAuthentication = DeviceAuthentication { challenge in
                    let responder = DeviceAuthResponder(
                        credentials: .init(
                            privateKey: key,
                            certificateChain: chain,
                            tlsCertificateDER: tlsCertificate.withLock { $0 }
                        )
                    )
                    return responder.respond(to: challenge)
                }
            }
        )
        let der = try #require(rig.device.certificate?.derBytes)
        tlsCertificate.withLock { $0 = der }
        return rig
    }

    /// A sender requiring authentication against `anchor` only, its clock on ``day``.
    static func options(_ rig: EndToEndRig, anchor: Certificate) -> CastOptions {
        rig.options {
            $0.deviceAuthentication = DeviceAuthenticationPolicy(
                mode: .required,
                trustsBuiltInRoots: false,
                additionalTrustAnchors: [anchor]
            )
            $0.currentDate = { Self.day }
        }
    }

    @Test func aDeviceWithTheTestChainIsAuthenticated() async throws {
        let rig = try await Self.device(.testChain)
        let certificate = try #require(rig.device.certificate)
        #expect(certificate.notBefore <= Self.day && Self.day <= certificate.notAfter)
        let context = CastContext(options: Self.options(rig, anchor: try #require(Self.deviceChain.last)))
        let session = try await context.sessionManager.startSession(with: rig.target)
        #expect(session.connectionState == .connected)
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
        #expect(rig.device.engineSnapshot?.runningApplication?.sessionID == session.sessionID)
        await context.sessionManager.endSession(stopCasting: true)
        await rig.device.stop()
    }

    /// Why a failure: the device's credentials, the root the sender trusts, and the cause expected.
    struct Failure: Sendable, CustomStringConvertible {
        var credentials: DeviceCredentials
        var trustsTestRoot: Bool
        var expected: DeviceAuthError.Code
        var description: String { "\(credentials), trusts test root: \(trustsTestRoot)" }
    }

    @Test(arguments: [
        Failure(credentials: .none, trustsTestRoot: true, expected: .authenticationErrorReceived),
        Failure(credentials: .wrongKey, trustsTestRoot: true, expected: .deviceAuthenticationFailure),
        Failure(credentials: .testChain, trustsTestRoot: false, expected: .deviceCertificateNotTrusted),
    ])
    func authenticationFailuresNeverLaunch(_ failure: Failure) async throws {
        let rig = try await Self.device(failure.credentials)
        let anchor =
            failure.trustsTestRoot
            ? try #require(Self.deviceChain.last)
            : try Certificate(pemEncoded: CastTestData.text("common/certificate/certificates/cast_test_root_ca.pem"))
        let context = CastContext(options: Self.options(rig, anchor: anchor))
        let recorder = EventRecorder()
        context.sessionManager.add(recorder)
        do {
            _ = try await context.sessionManager.startSession(with: rig.target)
            Issue.record("the session started against \(failure)")
        } catch {
            #expect(error.code == .deviceAuthentication)
            let cause = try #require(error.underlying as? DeviceAuthError, "\(error)")
            #expect(cause.code == failure.expected, "\(cause)")
        }
        await rig.drain()
        #expect(recorder.names == ["willStart", "didFailToStart"])
        #expect(rig.log.inbound(type: "LAUNCH").isEmpty)
        #expect(
            rig.device.engineSnapshot?.runningApplication?.appID != DiscoveryCriteria.defaultMediaReceiverApplicationID
        )
        #expect(
            !rig.log.all.filter { $0.direction == .inbound && $0.namespace == CastNamespace.deviceAuth.rawValue }
                .isEmpty
        )
        await rig.device.stop()
    }

    /// The default virtual device, with its process-generated chain, is authenticated by a
    /// sender that requires authentication and trusts only that chain's root, at the real date.
    @Test func theDefaultVirtualDeviceIsAuthenticatedWithTheGeneratedRoot() async throws {
        let rig = try await EndToEndRig.start()
        let root = try #require(VirtualDeviceAuthority.shared?.root)
        let context = CastContext(
            options: rig.options {
                $0.deviceAuthentication = DeviceAuthenticationPolicy(
                    mode: .required,
                    trustsBuiltInRoots: false,
                    additionalTrustAnchors: [root]
                )
            }
        )
        let session = try await context.sessionManager.startSession(with: rig.target)
        #expect(session.connectionState == .connected)
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
        await context.sessionManager.endSession(stopCasting: true)
        await rig.device.stop()
    }

    /// Google's roots alone do not accept the generated chain.
    @Test func theGeneratedChainIsNotTrustedByGooglesRoots() async throws {
        let rig = try await EndToEndRig.start()
        let context = CastContext(options: rig.options { $0.deviceAuthentication = .required })
        do {
            _ = try await context.sessionManager.startSession(with: rig.target)
            Issue.record("the session started with only Google's roots trusted")
        } catch {
            let cause = try #require(error.underlying as? DeviceAuthError, "\(error)")
            #expect(cause.code == .deviceCertificateNotTrusted, "\(cause)")
        }
        #expect(rig.log.inbound(type: "LAUNCH").isEmpty)
        await rig.device.stop()
    }
}
