import CastCrypto
import CastNet
import CastTestSupport
import Foundation
import Testing

@Suite(.requires(.openScreenTestData)) struct SigningTests {
    struct SignedDataCase: Sendable, CustomStringConvertible {
        let dataFile: String
        let chainFile: String
        var description: String { dataFile }
    }

    static let signedDataCases = [
        SignedDataCase(dataFile: "2ZZBG9_FA8FCA3EF91A.pem", chainFile: "chromecast_gen1.pem"),
        SignedDataCase(dataFile: "2ZZBG9_FA8FCA3EF91A.pem", chainFile: "chromecast_gen1_reissue.pem"),
        SignedDataCase(dataFile: "AudioReferenceDevTest.pem", chainFile: "audio_ref_dev_test_chain_3.pem"),
        SignedDataCase(dataFile: "rsa2048_device_cert_data.pem", chainFile: "rsa2048_device_cert.pem"),
    ]

    @Test(arguments: signedDataCases)
    func testDataSignaturesVerify(_ testCase: SignedDataCase) throws {
        let blocks = try PEMBlock.blocks(in: CastTestData.text(CastTestData.signedData + testCase.dataFile))
        let message = try #require(blocks.first { $0.label == "MESSAGE" }).bytes
        let sha1 = try #require(blocks.first { $0.label == "SIGNATURE SHA1" }).bytes
        let sha256 = try #require(blocks.first { $0.label == "SIGNATURE SHA256" }).bytes
        let chain = try Certificate.certificates(
            pemEncoded: CastTestData.text(CastTestData.certificates + testCase.chainFile)
        )
        let key = try chain[0].publicKey

        #expect(key.verify(signature: sha1, data: message, digest: .sha1))
        #expect(key.verify(signature: sha256, data: message, digest: .sha256))
        // Wrong digest, bogus data, empty and flipped signatures, wrong key.
        #expect(!key.verify(signature: sha1, data: message, digest: .sha256))
        #expect(!key.verify(signature: sha256, data: message, digest: .sha1))
        #expect(!key.verify(signature: sha1, data: message + [0], digest: .sha1))
        #expect(!key.verify(signature: sha256, data: Array("bogus".utf8), digest: .sha256))
        #expect(!key.verify(signature: [], data: message, digest: .sha256))
        #expect(!key.verify(signature: [0x00], data: message, digest: .sha256))
        var flipped = sha256
        flipped[flipped.count / 2] ^= 0x10
        #expect(!key.verify(signature: flipped, data: message, digest: .sha256))
        let issuerKey = try chain[1].publicKey
        #expect(!issuerKey.verify(signature: sha256, data: message, digest: .sha256))
    }

    @Test func pkcs1KeyFromTestDataSignsDeterministically() throws {
        let key = try PrivateKey(pemEncoded: CastTestData.text(CastTestData.channel + "device_key.pem"))
        #expect(key.bitSize == 2048)
        let chain = try Certificate.certificates(
            pemEncoded: CastTestData.text(CastTestData.channel + "device_chain.pem")
        )
        #expect(try key.publicKey == chain[0].publicKey)
        let data = Array("nonce and certificate".utf8)
        for digest in [DigestAlgorithm.sha1, .sha256] {
            let first = try key.sign(data, digest: digest)
            let second = try key.sign(data, digest: digest)
            #expect(first == second)
            #expect(first.count == 256)
            #expect(try chain[0].publicKey.verify(signature: first, data: data, digest: digest))
        }
    }

    @Test func generatedKeyExportsAsPKCS8AndReloads() throws {
        let key = try PrivateKey.generateRSA()
        #expect(key.bitSize == 2048)
        let pem = try key.pemString()
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let reloaded = try PrivateKey(pemEncoded: pem)
        #expect(try reloaded.publicKey == key.publicKey)
        let data: [UInt8] = [1, 2, 3]
        #expect(try reloaded.sign(data, digest: .sha256) == key.sign(data, digest: .sha256))
        let publicKey = try key.publicKey
        #expect(try PublicKey(derEncoded: publicKey.derBytes) == publicKey)
        #expect(publicKey.isRSA)
        #expect(publicKey.bitSize == 2048)
    }

    @Test func malformedKeysThrow() {
        let inputs = [
            "",
            "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n",
            "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
        ]
        for input in inputs {
            #expect(throws: OpenSSLError.malformedKeySample) { try PrivateKey(pemEncoded: input) }
        }
        #expect(throws: OpenSSLError.malformedKeySample) { try PublicKey(derEncoded: [0x30, 0x00]) }
        #expect(throws: OpenSSLError.malformedKeySample) { try PublicKey(derEncoded: []) }
    }
}
