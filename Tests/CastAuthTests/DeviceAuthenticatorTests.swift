import CastAuth
import CastCore
import CastCrypto
import CastNet
import CastTestSupport
import Foundation
import Testing

@Suite struct DeviceAuthenticatorTests {
    func verify(
        _ fixture: ChannelFixture,
        response: AuthResponse,
        nonce: [UInt8]? = nil,
        tls: [UInt8]? = nil,
        at time: Date = ChannelFixture.now,
        policy: DeviceAuthenticationPolicy? = nil
    ) throws -> DeviceAuthenticationResult {
        let authenticator = try DeviceAuthenticator(policy: policy ?? fixture.policy())
        let challenge = DeviceAuthChallenge(nonce: try nonce ?? fixture.nonce)
        let reply = CastMessage(
            sourceID: "receiver-0",
            destinationID: "sender-0",
            namespace: .deviceAuth,
            binary: DeviceAuthMessage(response: response).serializedBytes()
        )
        return try authenticator.verify(
            reply: reply,
            to: challenge,
            peerCertificateDER: tls ?? fixture.tlsCertificate.derBytes,
            at: time
        )
    }

    func expectFailure(
        _ code: DeviceAuthError.Code,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> DeviceAuthenticationResult
    ) {
        do {
            let result = try body()
            Issue.record("expected \(code), got \(result)", sourceLocation: sourceLocation)
        } catch let error as DeviceAuthError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test(.requires(.openScreenTestData)) func acceptsTheReferenceResponse() throws {
        let fixture = try ChannelFixture()
        let result = try verify(fixture, response: fixture.response())
        #expect(result.isAuthenticated)
        #expect(!result.isAudioOnly)
        #expect(result.deviceCommonName == fixture.deviceChain[0].subjectCommonName)
        #expect(result.device?.path == fixture.deviceChain)
        #expect(result.revocationStatus == .notChecked)
    }

    @Test(.requires(.openScreenTestData)) func acceptsAResponseFromOurResponderForAFreshChallenge() throws {
        let fixture = try ChannelFixture()
        let authenticator = try DeviceAuthenticator(policy: fixture.policy())
        let challenge = try authenticator.makeChallenge()
        #expect(challenge.nonce.count == 16)
        #expect(challenge.hashAlgorithm == .sha256)
        let responder = DeviceAuthResponder(credentials: fixture.credentials())
        let reply = try #require(responder.reply(to: challenge.castMessage))
        let result = try authenticator.verify(
            reply: reply,
            to: challenge,
            peerCertificateDER: fixture.tlsCertificate.derBytes,
            at: ChannelFixture.now
        )
        #expect(result.isAuthenticated)
        #expect(try authenticator.makeChallenge().nonce != challenge.nonce)
    }

    @Test(.requires(.openScreenTestData)) func rejectsAFlippedSignatureBit() throws {
        let fixture = try ChannelFixture()
        let response = try fixture.response { $0.signature[100] ^= 0x04 }
        expectFailure(.deviceAuthenticationFailure) { try verify(fixture, response: response) }
    }

    @Test(.requires(.openScreenTestData)) func rejectsADifferentNonce() throws {
        let fixture = try ChannelFixture()
        var other = try fixture.nonce
        other[0] ^= 1
        expectFailure(.deviceAuthenticationFailure) { try verify(fixture, response: fixture.response(), nonce: other) }
        // A response that stops echoing the nonce is rejected too.
        let silent = try fixture.response { $0.senderNonce = nil }
        expectFailure(.deviceAuthenticationFailure) { try verify(fixture, response: silent) }
    }

    @Test(.requires(.openScreenTestData)) func rejectsADifferentTLSCertificate() throws {
        let fixture = try ChannelFixture()
        let other = try SelfSignedCertificate.generate(commonName: "Test Device", notBefore: .utc(2019, 12, 16, 23))
        expectFailure(.deviceAuthenticationFailure) {
            try verify(fixture, response: fixture.response(), tls: other.certificate.derBytes)
        }
    }

    @Test(.requires(.openScreenTestData)) func rejectsLaterVerification() throws {
        let fixture = try ChannelFixture()
        expectFailure(.sslCertificateNotTrusted) {
            try verify(fixture, response: fixture.response(), at: .utc(2021, 6, 1))
        }
    }

    @Test(.requires(.openScreenTestData)) func rejectsAnExpiredDeviceChainEvenWithAFreshTLSCertificate() throws {
        let fixture = try ChannelFixture()
        let later = Date.utc(2021, 6, 1)
        let tls = try SelfSignedCertificate.generate(commonName: "tls", notBefore: later.addingTimeInterval(-60))
        let nonce = try fixture.nonce
        let signature = try fixture.deviceKey.sign(nonce + tls.certificate.derBytes, digest: .sha256)
        let response = try fixture.response { $0.signature = signature }
        expectFailure(.deviceCertificateNotTrusted) {
            try verify(fixture, response: response, tls: tls.certificate.derBytes, at: later)
        }
    }

    @Test func tlsCertificateLifetimeRules() throws {
        let start = Date.utc(2024, 1, 1)
        let short = try SelfSignedCertificate.generate(commonName: "a", notBefore: start, validity: 2 * 86_400)
        try DeviceAuthenticator.checkTLSCertificate(short.certificate.derBytes, at: start.addingTimeInterval(60))
        // Not yet valid, expired, valid too long, not a certificate.
        let cases: [([UInt8], Date)] = [
            (short.certificate.derBytes, start.addingTimeInterval(-60)),
            (short.certificate.derBytes, start.addingTimeInterval(3 * 86_400)),
            (
                try SelfSignedCertificate.generate(
                    commonName: "b",
                    notBefore: start,
                    validity: 4 * 86_400 + 3_600,
                    key: short.privateKey
                ).certificate.derBytes, start.addingTimeInterval(60)
            ),
            ([0x30, 0x00], start),
        ]
        for (der, time) in cases {
            #expect(throws: DeviceAuthError(.sslCertificateNotTrusted, reason: "")) {
                try DeviceAuthenticator.checkTLSCertificate(der, at: time)
            }
        }
    }

    @Test(.requires(.openScreenTestData)) func untrustedRootIsRejected() throws {
        let fixture = try ChannelFixture()
        expectFailure(.deviceCertificateNotTrusted) {
            try verify(fixture, response: fixture.response(), policy: .required)
        }
    }

    @Test(.requires(.openScreenTestData)) func malformedRepliesHaveTypedErrors() throws {
        let fixture = try ChannelFixture()
        let authenticator = try DeviceAuthenticator(policy: fixture.policy())
        let challenge = DeviceAuthChallenge(nonce: try fixture.nonce)
        let tls = fixture.tlsCertificate.derBytes
        func check(_ payload: [UInt8], _ code: DeviceAuthError.Code, sourceLocation: SourceLocation = #_sourceLocation)
        {
            expectFailure(code, sourceLocation: sourceLocation) {
                try authenticator.verify(
                    replyPayload: payload,
                    to: challenge,
                    peerCertificateDER: tls,
                    at: ChannelFixture.now
                )
            }
        }
        check([0x12, 0x05, 0x01], .messageParseFailure)
        check(Array(fixture.responseBytes.prefix(40)), .messageParseFailure)
        check([], .messageParseFailure)
        check(
            DeviceAuthMessage(challenge: AuthChallenge(senderNonce: [1])).serializedBytes(),
            .challengeReceivedFailure
        )
        check(
            DeviceAuthMessage(error: AuthError(errorType: .internalError)).serializedBytes(),
            .authenticationErrorReceived
        )
        let text = CastMessage(sourceID: "r", destinationID: "s", namespace: .deviceAuth, text: "x")
        expectFailure(.messageParseFailure) {
            try authenticator.verify(reply: text, to: challenge, peerCertificateDER: tls, at: ChannelFixture.now)
        }

        func checkResponse(
            _ code: DeviceAuthError.Code,
            sourceLocation: SourceLocation = #_sourceLocation,
            _ change: (inout AuthResponse) -> Void
        ) throws {
            let response = try fixture.response(change)
            expectFailure(code, sourceLocation: sourceLocation) { try verify(fixture, response: response) }
        }
        try checkResponse(.malformedAuthenticationResponse) { $0.signature = [] }
        try checkResponse(.malformedAuthenticationResponse) { $0.clientAuthCertificate = [] }
        try checkResponse(.notX509Certificate) { $0.clientAuthCertificate = [0x30, 0x03, 1, 2, 3] }
        try checkResponse(.notX509Certificate) { $0.intermediateCertificates = [[0x00]] }
        try checkResponse(.deviceCertificateNotTrusted) { $0.intermediateCertificates = [] }
        try checkResponse(.deviceCapabilityNotSupported) { $0.signatureAlgorithm = .rsassaPSS }
        try checkResponse(.deviceCapabilityNotSupported) { $0.hashAlgorithm = HashAlgorithm(rawValue: 5) }
        // The signature is SHA-256; claiming SHA-1 makes it fail to verify.
        try checkResponse(.deviceAuthenticationFailure) { $0.hashAlgorithm = .sha1 }
    }

    @Test(.requires(.openScreenTestData)) func ifSupportedAcceptsErrorsAndTimeoutsUnauthenticated() throws {
        let fixture = try ChannelFixture()
        let lenient = try DeviceAuthenticator(policy: fixture.policy(.ifSupported))
        let strict = try DeviceAuthenticator(policy: fixture.policy(.required))
        let challenge = DeviceAuthChallenge(nonce: try fixture.nonce)
        let errorReply = DeviceAuthMessage(error: AuthError(errorType: .noTLS)).serializedBytes()
        let tls = fixture.tlsCertificate.derBytes
        let result = try lenient.verify(replyPayload: errorReply, to: challenge, peerCertificateDER: tls, at: .now)
        #expect(!result.isAuthenticated)
        #expect(result.unauthenticatedReason?.contains("NO_TLS") == true)
        #expect(try !lenient.timedOut(challenge).isAuthenticated)
        #expect(throws: DeviceAuthError(.timeoutFailure, reason: "")) { try strict.timedOut(challenge) }
        // A device that does answer must still pass.
        let bad = try fixture.response { $0.signature[0] ^= 1 }
        expectFailure(.deviceAuthenticationFailure) {
            try verify(fixture, response: bad, policy: fixture.policy(.ifSupported))
        }
    }

    @Test func offSendsNoChallenge() throws {
        let authenticator = try DeviceAuthenticator(policy: .off)
        #expect(!authenticator.sendsChallenge)
        #expect(!authenticator.resultWithoutChallenge.isAuthenticated)
        #expect(try DeviceAuthenticator(policy: .required).sendsChallenge)
    }

    @Test func errorCodesFollowGCKNumbering() {
        let codes: [(DeviceAuthError.Code, Int)] = [
            (.deviceAuthenticationFailure, 3), (.authenticationErrorReceived, 40), (.malformedClientCertificate, 41),
            (.notX509Certificate, 42), (.deviceCertificateNotTrusted, 43), (.sslCertificateNotTrusted, 44),
            (.malformedAuthenticationResponse, 45), (.deviceCapabilityNotSupported, 46), (.crlInvalid, 47),
            (.crlCheckFailed, 48), (.messageParseFailure, 100), (.challengeReceivedFailure, 101),
            (.timeoutFailure, 102),
        ]
        for (code, value) in codes {
            #expect(code.rawValue == value)
        }
    }
}
