import CastAuth
import CastCore
import CastCrypto
import CastNet
import CastTestSupport
import Foundation
import Testing

/// Mutated replies and CRL bundles must give a typed error or a result, never a crash.
@Suite(.requires(.openScreenTestData)) struct DeviceAuthMalformedInputTests {
    static func mutate(_ bytes: [UInt8], round: Int, using generator: inout SplitMix64) -> [UInt8] {
        var bytes = bytes
        switch round % 3 {
        case 0:
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] ^= UInt8.random(
                    in: 1...255,
                    using: &generator
                )
            }
        case 1:
            bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator)))
        default:
            let cut = Int.random(in: 0..<bytes.count, using: &generator)
            bytes.insert(contentsOf: [0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f], at: cut)
        }
        return bytes
    }

    @Test func mutatedRepliesAreRejected() throws {
        let fixture = try ChannelFixture()
        let authenticator = try DeviceAuthenticator(policy: fixture.policy())
        let challenge = DeviceAuthChallenge(nonce: try fixture.nonce)
        let reply = DeviceAuthMessage(response: try fixture.response()).serializedBytes()
        var generator = SplitMix64(seed: 3)
        var rejected = 0
        for round in 0..<300 {
            let payload = Self.mutate(reply, round: round, using: &generator)
            do {
                _ = try authenticator.verify(
                    replyPayload: payload,
                    to: challenge,
                    peerCertificateDER: fixture.tlsCertificate.derBytes,
                    at: ChannelFixture.now
                )
            } catch {
                rejected += 1
                #expect(!error.description.isEmpty)
            }
        }
        // A mutation may hit an ignored byte (an unknown field), but most must fail.
        #expect(rejected > 250)
    }

    @Test func mutatedCRLBundlesAreInvalidOrChecked() throws {
        let fixture = try ChannelFixture()
        let verifier = try CertificateChainVerifier(trustAnchors: [fixture.crlRoot])
        let good = try fixture.crl("good_crl.pb")
        var generator = SplitMix64(seed: 4)
        for round in 0..<300 {
            let bundle = Self.mutate(good, round: round, using: &generator)
            do {
                let list = try CastRevocationList(bundle: bundle, verifier: verifier, at: ChannelFixture.now)
                try list.check(fixture.deviceChain, at: ChannelFixture.now)
            } catch {
                #expect(error.code == .crlInvalid || error.code == .crlCheckFailed)
            }
        }
    }
}
