import CastAuth
import CastCore
import CastCrypto
import CastNet
import CastTestSupport
import Foundation
import Testing

@Suite(.requires(.openScreenTestData)) struct CastRevocationListTests {
    struct Case: Sendable, CustomStringConvertible {
        let file: String
        let expected: DeviceAuthError.Code?
        let reason: String
        var description: String { file }
    }

    static let cases = [
        Case(file: "good_crl.pb", expected: nil, reason: ""),
        Case(file: "device_revoked_crl.pb", expected: .crlCheckFailed, reason: "public-key hash"),
        Case(file: "device_serial_revoked_crl.pb", expected: .crlCheckFailed, reason: "serial number"),
        Case(file: "issuer_revoked_crl.pb", expected: .crlCheckFailed, reason: "public-key hash"),
        Case(file: "issuer_serial_revoked_crl.pb", expected: .crlCheckFailed, reason: "serial number"),
        Case(file: "bad_signature_crl.pb", expected: .crlInvalid, reason: "signature"),
        Case(file: "bad_signer_cert_crl.pb", expected: .crlInvalid, reason: "signer"),
        Case(file: "invalid_time_crl.pb", expected: .crlInvalid, reason: "valid from"),
    ]

    @Test(arguments: cases)
    func crlFilesWithCRLRequired(_ testCase: Case) throws {
        let fixture = try ChannelFixture()
        let crl = try fixture.crl(testCase.file)
        let authenticator = try DeviceAuthenticator(policy: fixture.policy(crl: .required))
        let response = try fixture.response { $0.crl = crl }
        let challenge = DeviceAuthChallenge(nonce: try fixture.nonce)
        let tls = fixture.tlsCertificate.derBytes
        if let expected = testCase.expected {
            do {
                let result = try authenticator.verify(
                    response: response,
                    to: challenge,
                    peerCertificateDER: tls,
                    at: ChannelFixture.now
                )
                Issue.record("expected \(expected), got \(result)")
            } catch {
                #expect(error.code == expected)
                #expect(error.reason.contains(testCase.reason), "\(error)")
            }
        } else {
            let result = try authenticator.verify(
                response: response,
                to: challenge,
                peerCertificateDER: tls,
                at: ChannelFixture.now
            )
            #expect(result.isAuthenticated)
            #expect(result.revocationStatus == .checked)
        }
    }

    @Test func revokedCertificateIsNamed() throws {
        let fixture = try ChannelFixture()
        let verifier = try CertificateChainVerifier(trustAnchors: [fixture.crlRoot])
        let device = try CastRevocationList(
            bundle: fixture.crl("device_revoked_crl.pb"),
            verifier: verifier,
            at: ChannelFixture.now
        )
        #expect(throws: DeviceAuthError(.crlCheckFailed, reason: "")) {
            try device.check(fixture.deviceChain, at: ChannelFixture.now)
        }
        do {
            try device.check(fixture.deviceChain, at: ChannelFixture.now)
        } catch {
            #expect(error.certificateName == fixture.deviceChain[0].subjectCommonName)
        }
        let issuer = try CastRevocationList(
            bundle: fixture.crl("issuer_serial_revoked_crl.pb"),
            verifier: verifier,
            at: ChannelFixture.now
        )
        do {
            try issuer.check(fixture.deviceChain, at: ChannelFixture.now)
            Issue.record("expected revocation")
        } catch {
            #expect(error.certificateName == fixture.deviceChain[1].subjectCommonName)
        }
        // The good CRL revokes nothing, and its window is enforced.
        let good = try CastRevocationList(
            bundle: fixture.crl("good_crl.pb"),
            verifier: verifier,
            at: ChannelFixture.now
        )
        try good.check(fixture.deviceChain, at: ChannelFixture.now)
        #expect(good.notBefore <= ChannelFixture.now && ChannelFixture.now <= good.notAfter)
        #expect(throws: DeviceAuthError(.crlInvalid, reason: "")) {
            try good.check(fixture.deviceChain, at: good.notAfter.addingTimeInterval(1))
        }
    }

    @Test func goodCRLIsRejectedUnderTheProductionCRLRoot() throws {
        let fixture = try ChannelFixture()
        let verifier = try CertificateChainVerifier(trustAnchors: CastTrustAnchors.crlRoots)
        #expect(throws: DeviceAuthError(.crlInvalid, reason: "")) {
            try CastRevocationList(bundle: fixture.crl("good_crl.pb"), verifier: verifier, at: ChannelFixture.now)
        }
    }

    @Test func missingCRLFollowsThePolicy() throws {
        let fixture = try ChannelFixture()
        let challenge = DeviceAuthChallenge(nonce: try fixture.nonce)
        let tls = fixture.tlsCertificate.derBytes
        for absent in [nil, [UInt8]()] as [[UInt8]?] {
            let response = try fixture.response { $0.crl = absent }
            let optional = try DeviceAuthenticator(policy: fixture.policy(crl: .optional))
            let result = try optional.verify(
                response: response,
                to: challenge,
                peerCertificateDER: tls,
                at: ChannelFixture.now
            )
            #expect(result.isAuthenticated)
            #expect(result.revocationStatus == .notChecked)
            let required = try DeviceAuthenticator(policy: fixture.policy(crl: .required))
            #expect(throws: DeviceAuthError(.crlInvalid, reason: "")) {
                try required.verify(response: response, to: challenge, peerCertificateDER: tls, at: ChannelFixture.now)
            }
        }
    }

    @Test func optionalPolicyIgnoresAnInvalidCRLButEnforcesAValidOne() throws {
        let fixture = try ChannelFixture()
        let challenge = DeviceAuthChallenge(nonce: try fixture.nonce)
        let tls = fixture.tlsCertificate.derBytes
        let optional = try DeviceAuthenticator(policy: fixture.policy(crl: .optional))
        let invalid = try fixture.response { $0.crl = try? fixture.crl("bad_signature_crl.pb") }
        let result = try optional.verify(
            response: invalid,
            to: challenge,
            peerCertificateDER: tls,
            at: ChannelFixture.now
        )
        #expect(result.revocationStatus == .notChecked)
        let revoked = try fixture.response { $0.crl = try? fixture.crl("device_revoked_crl.pb") }
        #expect(throws: DeviceAuthError(.crlCheckFailed, reason: "")) {
            try optional.verify(response: revoked, to: challenge, peerCertificateDER: tls, at: ChannelFixture.now)
        }
        let ignoring = try DeviceAuthenticator(policy: fixture.policy(crl: .none))
        let unchecked = try ignoring.verify(
            response: revoked,
            to: challenge,
            peerCertificateDER: tls,
            at: ChannelFixture.now
        )
        #expect(unchecked.revocationStatus == .notChecked)
    }

    @Test func malformedBundlesAreInvalid() throws {
        let fixture = try ChannelFixture()
        let verifier = try CertificateChainVerifier(trustAnchors: [fixture.crlRoot])
        let good = try fixture.crl("good_crl.pb")
        let inputs: [[UInt8]] = [
            [0xff],
            Array(good.prefix(good.count - 10)),
            CrlBundle(crls: []).serializedBytes(),
            CrlBundle(crls: [Crl(tbsCrl: [0x08, 0x01])]).serializedBytes(),
            CrlBundle(crls: [Crl(tbsCrl: [], signerCert: [], signature: [])]).serializedBytes(),
        ]
        for input in inputs {
            #expect(throws: DeviceAuthError(.crlInvalid, reason: "")) {
                try CastRevocationList(bundle: input, verifier: verifier, at: ChannelFixture.now)
            }
        }
    }
}
