import CastCrypto
import CastNet
import CastTestSupport
import Foundation
import Testing

@Suite(.requires(.openScreenTestData)) struct CertificateChainVerifierTests {
    static func chain(_ file: String) throws -> [Certificate] {
        try Certificate.certificates(pemEncoded: CastTestData.text(CastTestData.certificates + file))
    }

    static func builtInRoots() throws -> [Certificate] {
        try ["roots/cast_root_ca.pem", "roots/eureka_root_ca.pem"].map {
            try Certificate(pemEncoded: CastTestData.text($0))
        }
    }

    struct Row: Sendable, CustomStringConvertible {
        let file: String
        let time: Date
        let lastIsRoot: Bool
        let expected: CertificateVerificationError.Code?
        var description: String { "\(file) at \(time)" }
    }

    static let rows: [Row] = [
        Row(file: "chromecast_gen1.pem", time: .utc(2016, 4, 1), lastIsRoot: false, expected: nil),
        Row(file: "chromecast_gen2.pem", time: .utc(2016, 4, 1), lastIsRoot: false, expected: nil),
        Row(file: "chromecast_gen2.pem", time: .utc(2015, 1, 1), lastIsRoot: false, expected: .notYetValid),
        Row(file: "chromecast_gen2.pem", time: .utc(2037, 3, 1), lastIsRoot: false, expected: .expired),
        Row(file: "unchained.pem", time: .utc(2016, 4, 1), lastIsRoot: false, expected: .untrusted),
        Row(file: "expired_root.pem", time: .utc(2016, 4, 1), lastIsRoot: true, expected: nil),
        Row(
            file: "violates_root_pathlen_constraint.pem",
            time: .utc(2016, 4, 1),
            lastIsRoot: true,
            expected: .pathLengthExceeded
        ),
        Row(file: "nc.pem", time: .utc(2020, 4, 1), lastIsRoot: true, expected: nil),
        Row(file: "nc_fail.pem", time: .utc(2020, 4, 1), lastIsRoot: true, expected: .nameConstraintViolation),
    ]

    @Test(arguments: rows)
    func verifiesTestChains(_ row: Row) throws {
        var certificates = try Self.chain(row.file)
        let anchors = row.lastIsRoot ? [certificates.removeLast()] : try Self.builtInRoots()
        let verifier = try CertificateChainVerifier(trustAnchors: anchors)
        let leaf = certificates[0]
        let intermediates = Array(certificates.dropFirst())
        if let expected = row.expected {
            #expect(throws: CertificateVerificationError(expected, depth: 0, certificateName: "", reason: "")) {
                try verifier.verify(leaf, intermediates: intermediates, at: row.time)
            }
        } else {
            let path = try verifier.verify(leaf, intermediates: intermediates, at: row.time)
            #expect(path.first == leaf)
            #expect(anchors.contains(try #require(path.last)))
        }
    }

    @Test func errorNamesTheCertificate() throws {
        let certificates = try Self.chain("chromecast_gen2.pem")
        let verifier = try CertificateChainVerifier(trustAnchors: Self.builtInRoots())
        do {
            _ = try verifier.verify(certificates[0], intermediates: [certificates[1]], at: .utc(2037, 3, 1))
            Issue.record("expected expiry")
        } catch {
            #expect(error.code == .expired)
            #expect(error.description.contains("expired"))
            #expect(!error.certificateName.isEmpty)
        }
    }

    @Test func missingIntermediateIsUntrusted() throws {
        let certificates = try Self.chain("chromecast_gen1.pem")
        let verifier = try CertificateChainVerifier(trustAnchors: Self.builtInRoots())
        #expect(throws: CertificateVerificationError(.untrusted, depth: 0, certificateName: "", reason: "")) {
            try verifier.verify(certificates[0], at: .utc(2016, 4, 1))
        }
        let empty = try CertificateChainVerifier(trustAnchors: [])
        #expect(throws: CertificateVerificationError.self) {
            try empty.verify(certificates[0], intermediates: [certificates[1]], at: .utc(2016, 4, 1))
        }
    }

    @Test func intermediateAsAnchorEndsThePath() throws {
        let certificates = try Self.chain("chromecast_gen1.pem")
        let verifier = try CertificateChainVerifier(trustAnchors: [certificates[1]])
        let path = try verifier.verify(certificates[0], at: .utc(2016, 4, 1))
        #expect(path == certificates)
    }

    @Test func selfSignedLeafIsNotTrustedUnlessAnchored() throws {
        let generated = try SelfSignedCertificate.generate(commonName: "tls", notBefore: .utc(2020, 1, 1))
        let verifier = try CertificateChainVerifier(trustAnchors: Self.builtInRoots())
        #expect(throws: CertificateVerificationError(.untrusted, depth: 0, certificateName: "", reason: "")) {
            try verifier.verify(generated.certificate, at: .utc(2020, 1, 2))
        }
    }
}
