import CastCrypto
import CastNet
import CastTestSupport
import Foundation
import Testing

@Suite(.requires(.openScreenTestData)) struct CertificateTests {
    @Test func readsChainWithTextPreamble() throws {
        let text = try CastTestData.text(CastTestData.certificates + "chromecast_gen1.pem")
        #expect(text.hasPrefix("$ openssl x509 -text"))
        let chain = try Certificate.certificates(pemEncoded: text)
        try #require(chain.count == 2)
        let leaf = chain[0]
        #expect(leaf.subjectCommonName == "2ZZBG9 FA8FCA3EF91A")
        #expect(leaf.issuerCommonName == "Eureka Gen1 ICA")
        #expect(leaf.subject.hasPrefix("CN=2ZZBG9 FA8FCA3EF91A,OU=Google TV"))
        #expect(leaf.issuer.hasPrefix("CN=Eureka Gen1 ICA,"))
        #expect(leaf.serialNumber == [0x53, 0xcc, 0x4f, 0x2c])
        #expect(leaf.serialNumberUInt64 == 1_405_898_540)
        #expect(leaf.notBefore == .utc(2014, 7, 20, 23, 22, 20))
        #expect(leaf.notAfter == .utc(2034, 7, 15, 23, 22, 20))
        #expect(!leaf.isCA)
        #expect(leaf.allowsDigitalSignature)
        #expect(chain[1].isCA)
        #expect(chain[1].subjectCommonName == "Eureka Gen1 ICA")
        // Value from `openssl x509 -pubkey | openssl pkey -pubin -outform DER | sha256sum`.
        #expect(
            hex(leaf.subjectPublicKeyInfoSHA256) == "0ea8bfd0718354fd6b91d4be1b22f9473713663fb68e1247dfbe7ed5bae1e441"
        )
        let key = try leaf.publicKey
        #expect(key.isRSA)
        #expect(key.bitSize == 2048)
        #expect(key.derBytes == leaf.subjectPublicKeyInfoDER)
    }

    @Test func rootFields() throws {
        let root = try Certificate(pemEncoded: CastTestData.text("roots/cast_root_ca.pem"))
        #expect(root.subjectCommonName == "Cast Root CA")
        #expect(root.issuerCommonName == "Cast Root CA")
        #expect(root.isCA)
        #expect(root.pathLengthConstraint == 2)
        #expect(root.serialNumberUInt64 == 2)
        #expect(root.notBefore == .utc(2014, 4, 2, 17, 34, 26))
        #expect(root.notAfter == .utc(2034, 3, 28, 17, 34, 26))
    }

    @Test func derAndPEMRoundTrip() throws {
        let text = try CastTestData.text(CastTestData.certificates + "fugu.pem")
        for certificate in try Certificate.certificates(pemEncoded: text) {
            let fromDER = try Certificate(derEncoded: certificate.derBytes)
            #expect(fromDER == certificate)
            #expect(fromDER.derBytes == certificate.derBytes)
            let fromPEM = try Certificate(pemEncoded: certificate.pemString)
            #expect(fromPEM == certificate)
            #expect(fromPEM.subject == certificate.subject)
        }
    }

    @Test func policyIdentifiers() throws {
        let text = try CastTestData.text(CastTestData.certificates + "policies_ica_anypolicy_leaf_audioonly.pem")
        let chain = try Certificate.certificates(pemEncoded: text)
        try #require(chain.count == 3)
        #expect(chain[0].policyIdentifiers == ["1.3.6.1.4.1.11129.2.5.2"])
        #expect(chain[1].policyIdentifiers == ["2.5.29.32.0"])
        let none = try Certificate.certificates(
            pemEncoded: CastTestData.text(CastTestData.certificates + "policies_ica_none_leaf_none.pem")
        )
        #expect(none[0].policyIdentifiers.isEmpty)
    }

    @Test func malformedDERIsATypedError() throws {
        let valid = try Certificate(pemEncoded: CastTestData.text("roots/eureka_root_ca.pem")).derBytes
        let cases: [[UInt8]] = [
            [],
            [0x30],
            [0x30, 0x82, 0xff, 0xff],
            Array(valid.prefix(valid.count / 2)),
            valid + [0x00],
            Array(repeating: 0xff, count: 300),
        ]
        for bytes in cases {
            #expect(throws: OpenSSLError.malformedCertificateSample) { try Certificate(derEncoded: bytes) }
        }
        var flipped = valid
        flipped[1] ^= 0x01
        #expect(throws: OpenSSLError.self) { try Certificate(derEncoded: flipped) }
    }

    @Test func pemWithoutCertificateThrows() {
        #expect(throws: OpenSSLError.malformedPEMSample) { try Certificate(pemEncoded: "nothing") }
        let garbage = PEMBlock(label: "CERTIFICATE", bytes: [1, 2, 3]).pemString
        #expect(throws: OpenSSLError.malformedCertificateSample) { try Certificate(pemEncoded: garbage) }
    }

    @Test func errorCarriesOpenSSLQueue() {
        do {
            _ = try Certificate(derEncoded: [0x30, 0x03, 0x02, 0x01, 0x01])
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .malformedCertificate)
            #expect(!error.openSSLErrors.isEmpty)
            #expect(error.description.contains("5 bytes"))
        }
    }
}
