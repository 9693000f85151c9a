import CastCrypto
import CastNet
import CastTestSupport
import Foundation
import Testing

/// Feeds mutated and random bytes to the certificate, key and PEM readers: each must either
/// succeed or throw a typed error, never crash or hang.
@Suite(.requires(.openScreenTestData)) struct CryptoMalformedInputTests {
    @Test func mutatedCertificatesNeverCrash() throws {
        let chain = try Certificate.certificates(
            pemEncoded: CastTestData.text(CastTestData.certificates + "chromecast_gen1.pem")
        )
        let original = chain[0].derBytes
        var generator = SplitMix64(seed: 1)
        var rejected = 0
        for round in 0..<500 {
            var bytes = original
            switch round % 3 {
            case 0:
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] ^= UInt8.random(
                    in: 1...255,
                    using: &generator
                )
            case 1:
                bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator)))
            default:
                bytes = (0..<Int.random(in: 0..<600, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            }
            do {
                let certificate = try Certificate(derEncoded: bytes)
                // Whatever parses must be readable without crashing.
                _ = certificate.subjectCommonName
                _ = certificate.issuer
                _ = certificate.serialNumberUInt64
                _ = certificate.notAfter
                _ = certificate.policyIdentifiers
                _ = try? certificate.publicKey
            } catch {
                rejected += 1
                #expect(!error.description.isEmpty)
            }
        }
        #expect(rejected > 300)
    }

    @Test func randomTextNeverCrashesTheReaders() {
        var generator = SplitMix64(seed: 2)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-\n :")
        for _ in 0..<300 {
            var text = "-----BEGIN CERTIFICATE-----\n"
            text += String(
                (0..<Int.random(in: 0..<400, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            )
            if Bool.random(using: &generator) { text += "\n-----END CERTIFICATE-----\n" }
            _ = try? Certificate.certificates(pemEncoded: text)
            _ = try? PrivateKey(pemEncoded: text.replacingOccurrences(of: "CERTIFICATE", with: "PRIVATE KEY"))
            _ = try? PEMBlock.blocks(in: text)
        }
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 0..<300, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            #expect(throws: OpenSSLError.self) { try PublicKey(derEncoded: bytes) }
        }
    }

    @Test func concurrentUseOfSharedValues() async throws {
        let chain = try Certificate.certificates(
            pemEncoded: CastTestData.text(CastTestData.certificates + "chromecast_gen1.pem")
        )
        let roots = try ["roots/cast_root_ca.pem", "roots/eureka_root_ca.pem"].map {
            try Certificate(pemEncoded: CastTestData.text($0))
        }
        let verifier = try CertificateChainVerifier(trustAnchors: roots)
        let key = try PrivateKey.generateRSA()
        let publicKey = try key.publicKey
        let time = Date.utc(2016, 4, 1)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let data = [UInt8(index)]
                    guard let path = try? verifier.verify(chain[0], intermediates: [chain[1]], at: time),
                        let signature = try? key.sign(data, digest: .sha256)
                    else { return false }
                    return path.count == 3 && publicKey.verify(signature: signature, data: data, digest: .sha256)
                        && chain[0].subjectCommonName == "2ZZBG9 FA8FCA3EF91A"
                }
            }
            var results: [Bool] = []
            for await outcome in group { results.append(outcome) }
            return results
        }
        #expect(outcomes.count == 16)
        #expect(outcomes.allSatisfy { $0 })
    }
}
