import CastCrypto
import CastNet
import CastTestSupport
import Foundation
import Testing

@Suite struct SelfSignedCertificateTests {
    @Test func generatedCertificateFields() throws {
        let start = Date.utc(2024, 5, 1, 12)
        let generated = try SelfSignedCertificate.generate(
            commonName: "Living Room TV",
            notBefore: start,
            validity: 2 * 86_400
        )
        let certificate = generated.certificate
        #expect(certificate.subjectCommonName == "Living Room TV")
        #expect(certificate.issuerCommonName == "Living Room TV")
        #expect(certificate.subject == "CN=Living Room TV")
        #expect(certificate.notBefore == start)
        #expect(certificate.notAfter == start.addingTimeInterval(2 * 86_400))
        #expect(!certificate.isCA)
        #expect(certificate.allowsDigitalSignature)
        #expect(certificate.serialNumberUInt64 != nil)
        #expect(certificate.serialNumberUInt64 != 0)
        let key = try certificate.publicKey
        #expect(key == (try generated.privateKey.publicKey))
        #expect(key.bitSize == 2048)
        // The certificate parses back from its own encodings.
        #expect(try Certificate(derEncoded: certificate.derBytes) == certificate)
        #expect(try Certificate(pemEncoded: certificate.pemString) == certificate)
    }

    @Test func reusesAGivenKeyAndDrawsFreshSerials() throws {
        let key = try PrivateKey.generateRSA()
        let first = try SelfSignedCertificate.generate(commonName: "a", key: key)
        let second = try SelfSignedCertificate.generate(commonName: "a", key: key)
        #expect(try first.certificate.publicKey == key.publicKey)
        #expect(try second.certificate.publicKey == key.publicKey)
        #expect(first.certificate.serialNumber != second.certificate.serialNumber)
    }

    @Test func unicodeCommonName() throws {
        let generated = try SelfSignedCertificate.generate(commonName: "Küche 🔊")
        #expect(generated.certificate.subjectCommonName == "Küche 🔊")
    }
}
