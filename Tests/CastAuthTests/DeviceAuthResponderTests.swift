import CastAuth
import CastCore
import CastCrypto
import CastNet
import CastTestSupport
import Foundation
import Testing

@Suite(.requires(.openScreenTestData)) struct DeviceAuthResponderTests {
    @Test func reproducesTheReferenceResponseByteForByte() throws {
        let fixture = try ChannelFixture()
        let responder = DeviceAuthResponder(credentials: fixture.credentials())
        let reply = try #require(responder.reply(to: fixture.challengeMessage))
        #expect(reply.sourceID == "receiver-0")
        #expect(reply.destinationID == "sender-0")
        #expect(reply.namespace == .deviceAuth)
        #expect(reply.payloadType == .binary)
        let message = try DeviceAuthMessage(serializedBytes: reply.payloadBinary ?? [])
        let response = try #require(message.response)
        #expect(response.serializedBytes() == fixture.responseBytes)
        #expect(message.error == nil)
    }

    @Test func challengeMatchesTheReferenceChallenge() throws {
        let fixture = try ChannelFixture()
        let challenge = DeviceAuthChallenge(nonce: try fixture.nonce)
        #expect(challenge.castMessage.serializedBytes() == fixture.challengeBytes)
        #expect(challenge.castMessage == fixture.challengeMessage)
    }

    @Test func defaultsToSHA1AndEchoesTheNonce() throws {
        let fixture = try ChannelFixture()
        let responder = DeviceAuthResponder(credentials: fixture.credentials(crl: [1, 2, 3]))
        let nonce = Array(repeating: UInt8(7), count: 16)
        let response = try #require(responder.respond(to: AuthChallenge(senderNonce: nonce)).response)
        #expect(response.hashAlgorithm == .sha1)
        #expect(response.senderNonce == nonce)
        #expect(response.crl == [1, 2, 3])
        #expect(response.intermediateCertificates == [fixture.deviceChain[1].derBytes])
        let key = try fixture.deviceChain[0].publicKey
        #expect(key.verify(signature: response.signature, data: nonce + fixture.tlsCertificate.derBytes, digest: .sha1))
    }

    @Test func unsupportedAlgorithmsAndMissingCredentialsGiveErrors() throws {
        let fixture = try ChannelFixture()
        let responder = DeviceAuthResponder(credentials: fixture.credentials())
        let pss = responder.respond(to: AuthChallenge(signatureAlgorithm: .rsassaPSS, senderNonce: [1]))
        #expect(pss.error?.errorType == .signatureAlgorithmUnavailable)
        #expect(pss.response == nil)
        let oddHash = responder.respond(to: AuthChallenge(senderNonce: [1], hashAlgorithm: HashAlgorithm(rawValue: 9)))
        #expect(oddHash.error?.errorType == .signatureAlgorithmUnavailable)
        let empty = DeviceAuthResponder(credentials: nil)
        #expect(empty.respond(to: AuthChallenge(senderNonce: [1])).error?.errorType == .internalError)
        let forced = DeviceAuthResponder(credentials: fixture.credentials(), forcedError: .noTLS)
        #expect(forced.respond(to: AuthChallenge(senderNonce: [1])).error?.errorType == .noTLS)
    }

    @Test func ignoresMessagesThatAreNotChallenges() throws {
        let fixture = try ChannelFixture()
        let responder = DeviceAuthResponder(credentials: fixture.credentials())
        let text = CastMessage(sourceID: "s", destinationID: "r", namespace: .deviceAuth, text: "{}")
        #expect(responder.reply(to: text) == nil)
        let garbage = CastMessage(sourceID: "s", destinationID: "r", namespace: .deviceAuth, binary: [0xff, 0xff])
        #expect(responder.reply(to: garbage) == nil)
        let response = DeviceAuthMessage(response: try fixture.response())
        let echoed = CastMessage(
            sourceID: "s",
            destinationID: "r",
            namespace: .deviceAuth,
            binary: response.serializedBytes()
        )
        #expect(responder.reply(to: echoed) == nil)
        var otherNamespace = fixture.challengeMessage
        otherNamespace.namespace = .heartbeat
        #expect(responder.reply(to: otherNamespace) == nil)
    }
}
