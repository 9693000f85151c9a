import CastCore
import CastTestSupport
import Testing

@Suite(.requires(.openScreenTestData)) struct AuthResponseTests {
    @Test func responseInTestDataDecodesAndReencodesExactly() throws {
        let bytes = try CastTestData.bytes("receiver/channel/auth_response.pb")
        let response = try AuthResponse(serializedBytes: bytes)
        #expect(response.signature.count == 256)
        #expect(response.clientAuthCertificate.count == 854)
        // DER certificates start with a SEQUENCE tag and a two-byte long-form length.
        #expect(response.clientAuthCertificate.prefix(2) == [0x30, 0x82])
        #expect(response.intermediateCertificates.map(\.count) == [926])
        #expect(response.signatureAlgorithm == .rsassaPKCS1v15)
        #expect(response.hashAlgorithm == .sha256)
        #expect(
            response.senderNonce == [
                0x1E, 0x42, 0x40, 0x1C, 0x2B, 0xBC, 0x67, 0xF4, 0x64, 0xBE, 0x02, 0x7C, 0x37, 0x11, 0x4B, 0x44,
            ]
        )
        // The field is present with no content: an empty bundle, kept for byte-exact re-encoding.
        #expect(response.crl == [])
        #expect(try response.decodedCrlBundle() == CrlBundle())
        #expect(try AuthResponse(serializedBytes: [0x0A, 0x00, 0x12, 0x00]).decodedCrlBundle() == nil)
        #expect(response.unknownFields.isEmpty)
        #expect(response.serializedBytes() == bytes)
    }

    @Test func encodesByHand() throws {
        let response = AuthResponse(
            signature: [0x01],
            clientAuthCertificate: [0x02, 0x03],
            intermediateCertificates: [[0x04], []],
            signatureAlgorithm: .rsassaPSS,
            senderNonce: [0x05],
            hashAlgorithm: .sha256,
            crl: []
        )
        let expected: [UInt8] = [
            0x0A, 0x01, 0x01,  // signature
            0x12, 0x02, 0x02, 0x03,  // client_auth_certificate
            0x1A, 0x01, 0x04,  // intermediate_certificate #1
            0x1A, 0x00,  // intermediate_certificate #2 (empty)
            0x20, 0x02,  // signature_algorithm = RSASSA_PSS
            0x2A, 0x01, 0x05,  // sender_nonce
            0x30, 0x01,  // hash_algorithm = SHA256
            0x3A, 0x00,  // crl (present, empty)
        ]
        #expect(response.serializedBytes() == expected)
        #expect(try AuthResponse(serializedBytes: expected) == response)
    }

    @Test(arguments: [
        ([UInt8](), "signature", 1),
        ([0x0A, 0x00], "client_auth_certificate", 2),
        ([0x12, 0x00], "signature", 1),
    ])
    func missingRequiredFieldIsNamed(bytes: [UInt8], field: String, number: Int) {
        let error = #expect(throws: ProtobufError.self) { try AuthResponse(serializedBytes: bytes) }
        #expect(error?.code == .missingRequiredField)
        #expect(error?.messageName == "AuthResponse")
        #expect(error?.fieldName == field)
        #expect(error?.fieldNumber == number)
    }

    @Test func responseWithCrlFromTestDataDecodesTheBundle() throws {
        let template = try AuthResponse(serializedBytes: CastTestData.bytes("receiver/channel/auth_response.pb"))
        let crl = try CastTestData.bytes("receiver/channel/good_crl.pb")
        var response = template
        response.crl = crl
        let decoded = try AuthResponse(serializedBytes: response.serializedBytes())
        #expect(decoded.crl == crl)
        #expect(try decoded.decodedCrlBundle()?.crls.count == 1)
    }
}
