import CastAuth
import CastCore
import CastCrypto
import CastNet
import Foundation
import Testing

@testable import CastEmulator

/// The device-authentication chain virtual devices answer challenges with by default.
@Suite struct DeviceAuthChainTests {
    static let tlsDER: [UInt8] = Array(0..<200)

    private static func challengeMessage(_ challenge: AuthChallenge) -> CastMessage {
        CastMessage(
            sourceID: "sender-0",
            destinationID: "receiver-0",
            namespace: .deviceAuth,
            binary: DeviceAuthMessage(challenge: challenge).serializedBytes()
        )
    }

    private static func answer(
        _ challenge: AuthChallenge,
        configure: (inout VirtualDeviceConfiguration) -> Void = { _ in }
    ) throws -> AuthResponse {
        var device = DeviceHarness(configure)
        device.engine.tlsCertificateDER = tlsDER
        device.open()
        let reply = try #require(device.send(raw: challengeMessage(challenge)).sent.first)
        let answer = try DeviceAuthMessage(serializedBytes: try #require(reply.message.payloadBinary))
        #expect(answer.error == nil)
        return try #require(answer.response)
    }

    @Test func theGeneratedChainIsRootIntermediateDeviceRSA2048() throws {
        let chain = try #require(VirtualDeviceAuthority.shared)
        #expect(chain.root.subject == chain.root.issuer)
        #expect(chain.intermediate.issuer == chain.root.subject)
        #expect(chain.device.issuer == chain.intermediate.subject)
        #expect(chain.root.isCA && chain.intermediate.isCA && !chain.device.isCA)
        #expect(chain.deviceKey.bitSize == 2048)
        let verifier = try DeviceCertificateVerifier(trustAnchors: [chain.root])
        let video = try verifier.verify(chain.device, intermediates: [chain.intermediate], at: Date())
        #expect(video.policy == .unrestricted)
        let audio = try verifier.verify(chain.audioOnlyDevice, intermediates: [chain.intermediate], at: Date())
        #expect(audio.policy == .audioOnly)
        #expect(throws: DeviceAuthError.self) {
            try DeviceCertificateVerifier().verify(chain.device, intermediates: [chain.intermediate], at: Date())
        }
    }

    /// VLC's challenge: no nonce, no hash algorithm. Real devices answer with SHA-1.
    @Test func anEmptyChallengeIsSignedWithSHA1OverTheTLSCertificate() throws {
        let chain = try #require(VirtualDeviceAuthority.shared)
        let response = try Self.answer(AuthChallenge())
        #expect(response.hashAlgorithm == .sha1)
        #expect(response.clientAuthCertificate == chain.device.derBytes)
        #expect(response.intermediateCertificates == [chain.intermediate.derBytes])
        #expect(response.senderNonce == nil)
        let key = try chain.device.publicKey
        #expect(key.verify(signature: response.signature, data: Self.tlsDER, digest: .sha1))
        #expect(!key.verify(signature: response.signature, data: Self.tlsDER, digest: .sha256))
    }

    @Test func aChromiumChallengeIsSignedOverNonceAndTLSCertificate() throws {
        let chain = try #require(VirtualDeviceAuthority.shared)
        let nonce = Array(UInt8(50)..<UInt8(66))
        let response = try Self.answer(AuthChallenge(senderNonce: nonce, hashAlgorithm: .sha256))
        #expect(response.hashAlgorithm == .sha256)
        #expect(response.senderNonce == nonce)
        let key = try chain.device.publicKey
        #expect(key.verify(signature: response.signature, data: nonce + Self.tlsDER, digest: .sha256))
        #expect(!key.verify(signature: response.signature, data: Self.tlsDER, digest: .sha256))
    }

    @Test func anAudioOnlyDevicePresentsTheAudioOnlyCertificate() throws {
        let chain = try #require(VirtualDeviceAuthority.shared)
        let response = try Self.answer(AuthChallenge()) {
            $0.identity.capabilities = [.audioOut]
        }
        #expect(response.clientAuthCertificate == chain.audioOnlyDevice.derBytes)
        let certificate = try Certificate(derEncoded: response.clientAuthCertificate)
        #expect(certificate.policyIdentifiers.contains(DeviceCertificatePolicy.audioOnlyPolicyIdentifier))
    }

    @Test func aWrittenChainLoadsBackAndSigns() throws {
        let chain = try DeviceAuthChain.generate(name: "Loaded")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("auth-chain-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try chain.write(directory: directory)
        let keyMode = try FileManager.default.attributesOfItem(atPath: directory + "/device-key.pem")[.posixPermissions]
        #expect(keyMode as? Int == 0o600)
        let loaded = try DeviceAuthChain.load(directory: directory)
        #expect(loaded.root == chain.root && loaded.device == chain.device)
        #expect(loaded.audioOnlyDevice == chain.audioOnlyDevice)
        let response = try Self.answer(AuthChallenge()) { $0.deviceAuthentication = .chain(loaded) }
        #expect(response.clientAuthCertificate == chain.device.derBytes)
        #expect(try chain.device.publicKey.verify(signature: response.signature, data: Self.tlsDER, digest: .sha1))
    }

    @Test func loadingAnIncompleteOrMalformedChainFailsNamingTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("auth-bad-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        #expect(throws: DeviceAuthError.self) { try DeviceAuthChain.load(directory: directory) }
        try DeviceAuthChain.generate().write(directory: directory)
        try "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".write(
            toFile: directory + "/intermediate.pem",
            atomically: true,
            encoding: .utf8
        )
        do {
            _ = try DeviceAuthChain.load(directory: directory)
            Issue.record("a malformed intermediate loaded")
        } catch {
            #expect(error.description.contains("intermediate.pem"))
        }
    }

    @Test func fleetConfigurationAuthMembers() throws {
        let json = #"{"auth": "error", "devices": [{"name": "A"}, {"name": "B", "auth": "response"}]}"#
        let fleet = try FleetConfiguration(json: Array(json.utf8))
        #expect(fleet.devices.map(\.answersAuthChallenges) == [false, true])
        #expect(throws: FleetConfigurationError.self) {
            try FleetConfiguration(json: Array(#"{"devices": [{"name": "A", "auth": "maybe"}]}"#.utf8))
        }
        #expect(throws: FleetConfigurationError.self) {
            try FleetConfiguration(json: Array(#"{"authChain": "/nonexistent", "devices": [{"name": "A"}]}"#.utf8))
        }
        var device = DeviceHarness { $0.deviceAuthentication = fleet.devices[0].configuration.deviceAuthentication }
        device.open()
        let reply = try #require(device.send(raw: Self.challengeMessage(AuthChallenge())).sent.first)
        let answer = try DeviceAuthMessage(serializedBytes: try #require(reply.message.payloadBinary))
        #expect(answer.error == AuthError(errorType: .internalError))
    }
}
