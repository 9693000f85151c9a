import CastCore
import CastTestSupport
import Testing

@Suite(.requires(.openScreenTestData)) struct DeviceAuthMessageTests {
    @Test func challengeInTestDataDecodesAndReencodesExactly() throws {
        let bytes = try CastTestData.bytes("receiver/channel/auth_challenge.pb")
        let message = try CastMessage(serializedBytes: bytes)
        #expect(message.namespace == .deviceAuth)
        #expect(message.payloadType == .binary)
        let payload = try #require(message.payloadBinary)
        let auth = try DeviceAuthMessage(serializedBytes: payload)
        let challenge = try #require(auth.challenge)
        #expect(auth.response == nil)
        #expect(auth.error == nil)
        #expect(
            challenge.senderNonce == [
                0x1E, 0x42, 0x40, 0x1C, 0x2B, 0xBC, 0x67, 0xF4, 0x64, 0xBE, 0x02, 0x7C, 0x37, 0x11, 0x4B, 0x44,
            ]
        )
        #expect(challenge.hashAlgorithm == .sha256)
        #expect(challenge.signatureAlgorithm == nil)
        #expect(challenge.effectiveSignatureAlgorithm == .rsassaPKCS1v15)
        #expect(auth.serializedBytes() == payload)
        #expect(message.serializedBytes() == bytes)
    }

    @Test func challengeEncodesByHand() {
        // challenge (field 1, wire type 2): tag 0x0A, length 6, then
        //   sender_nonce (field 2, bytes): 0x12 0x02 0xAA 0xBB
        //   hash_algorithm (field 3, varint): 0x18 0x01
        let message = DeviceAuthMessage(challenge: AuthChallenge(senderNonce: [0xAA, 0xBB], hashAlgorithm: .sha256))
        #expect(message.serializedBytes() == [0x0A, 0x06, 0x12, 0x02, 0xAA, 0xBB, 0x18, 0x01])
    }

    @Test func absentDefaultsStayAbsentAndExplicitDefaultsStayPresent() throws {
        let explicit = AuthChallenge(signatureAlgorithm: .rsassaPKCS1v15, hashAlgorithm: .sha1)
        #expect(explicit.serializedBytes() == [0x08, 0x01, 0x18, 0x00])
        let decoded = try AuthChallenge(serializedBytes: explicit.serializedBytes())
        #expect(decoded.hashAlgorithm == .sha1)
        #expect(decoded != AuthChallenge())
        #expect(AuthChallenge().serializedBytes() == [])
        #expect(AuthChallenge().effectiveHashAlgorithm == .sha1)
    }

    @Test func errorRoundTrips() throws {
        let message = DeviceAuthMessage(error: AuthError(errorType: .signatureAlgorithmUnavailable))
        // error (field 3): 0x1A, length 2, error_type (field 1) = 2: 0x08 0x02
        #expect(message.serializedBytes() == [0x1A, 0x02, 0x08, 0x02])
        #expect(try DeviceAuthMessage(serializedBytes: [0x1A, 0x02, 0x08, 0x02]) == message)
    }

    @Test func unknownErrorTypeIsKept() throws {
        let message = try DeviceAuthMessage(serializedBytes: [0x1A, 0x02, 0x08, 0x07])
        #expect(message.error?.errorType.rawValue == 7)
        #expect(message.serializedBytes() == [0x1A, 0x02, 0x08, 0x07])
    }

    @Test func missingErrorTypeNamesTheNestedField() {
        // error (field 3) with an empty body, at offset 0; its content starts at offset 2.
        let error = #expect(throws: ProtobufError.self) {
            try DeviceAuthMessage(serializedBytes: [0x1A, 0x00])
        }
        #expect(error?.code == .missingRequiredField)
        #expect(error?.messageName == "AuthError")
        #expect(error?.fieldName == "error_type")
        #expect(error?.fieldNumber == 1)
        #expect(error?.offset == 2)
    }

    @Test func repeatedEmbeddedMessagesMerge() throws {
        // Two `challenge` fields: the first sets the nonce, the second the hash algorithm.
        let bytes: [UInt8] = [0x0A, 0x03, 0x12, 0x01, 0x55, 0x0A, 0x02, 0x18, 0x01]
        let message = try DeviceAuthMessage(serializedBytes: bytes)
        #expect(message.challenge == AuthChallenge(senderNonce: [0x55], hashAlgorithm: .sha256))
    }

    @Test func repeatedResponsesMergeTheirRepeatedFields() throws {
        // response { signature "" client_auth_certificate "" }, then 13,000 more
        // `response` fields each holding one intermediate_certificate {0xAA}: 65,006 bytes,
        // a frame's worth. Merging must append in place.
        var bytes: [UInt8] = [0x12, 0x04, 0x0A, 0x00, 0x12, 0x00]
        for _ in 0..<13_000 {
            bytes += [0x12, 0x03, 0x1A, 0x01, 0xAA]
        }
        let message = try DeviceAuthMessage(serializedBytes: bytes)
        let response = try #require(message.response)
        #expect(response.intermediateCertificates.count == 13_000)
        #expect(response.intermediateCertificates.allSatisfy { $0 == [0xAA] })
        // Each occurrence must carry the required fields itself (stricter than protobuf
        // runtimes, which check only the merged result).
        let split: [UInt8] = [0x12, 0x03, 0x0A, 0x01, 0x01, 0x12, 0x03, 0x12, 0x01, 0x02]
        let error = #expect(throws: ProtobufError.self) { try DeviceAuthMessage(serializedBytes: split) }
        #expect(error?.code == .missingRequiredField)
        #expect(error?.fieldName == "client_auth_certificate")
        #expect(error?.offset == 2)
    }

    @Test func unknownFieldsAreKeptAndReemitted() throws {
        // challenge (field 1, empty), then unknown field 9 varint 5 and unknown field 10 fixed32.
        let bytes: [UInt8] = [0x0A, 0x00, 0x48, 0x05, 0x55, 0x01, 0x02, 0x03, 0x04]
        let message = try DeviceAuthMessage(serializedBytes: bytes)
        #expect(message.challenge == AuthChallenge())
        #expect(message.unknownFields == [0x48, 0x05, 0x55, 0x01, 0x02, 0x03, 0x04])
        #expect(message.serializedBytes() == bytes)
    }
}
