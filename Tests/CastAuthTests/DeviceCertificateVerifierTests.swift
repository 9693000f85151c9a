import CastAuth
import CastCrypto
import CastNet
import CastTestSupport
import Foundation
import Testing

@Suite(.requires(.openScreenTestData)) struct DeviceCertificateVerifierTests {
    enum Anchors: Sendable {
        case builtIn
        case lastCertificate
    }

    /// One row of the test-data README's verification table.
    struct Row: Sendable, CustomStringConvertible {
        let file: String
        let time: Date
        let anchors: Anchors
        /// `nil` when the chain must verify.
        let failure: DeviceAuthError.Code?
        let pathFailure: CertificateVerificationError.Code?
        let commonName: String?
        let policy: DeviceCertificatePolicy?

        static func valid(
            _ file: String,
            _ time: Date,
            _ anchors: Anchors,
            _ commonName: String,
            _ policy: DeviceCertificatePolicy
        ) -> Row {
            Row(
                file: file,
                time: time,
                anchors: anchors,
                failure: nil,
                pathFailure: nil,
                commonName: commonName,
                policy: policy
            )
        }

        static func invalid(
            _ file: String,
            _ time: Date,
            _ anchors: Anchors,
            _ failure: DeviceAuthError.Code,
            _ pathFailure: CertificateVerificationError.Code? = nil
        ) -> Row {
            Row(
                file: file,
                time: time,
                anchors: anchors,
                failure: failure,
                pathFailure: pathFailure,
                commonName: nil,
                policy: nil
            )
        }

        var description: String { "\(file) at \(time)" }
    }

    static let april2016 = Date.utc(2016, 4, 1)

    static let table: [Row] = [
        .valid("chromecast_gen1.pem", april2016, .builtIn, "2ZZBG9 FA8FCA3EF91A", .unrestricted),
        .valid("chromecast_gen1_reissue.pem", april2016, .builtIn, "2ZZBG9 FA8FCA3EF91A", .unrestricted),
        .valid("chromecast_gen2.pem", april2016, .builtIn, "3ZZAK6 FA8FCA3F0D35", .unrestricted),
        .invalid("chromecast_gen2.pem", .utc(2015, 1, 1), .builtIn, .deviceCertificateNotTrusted, .notYetValid),
        .invalid("chromecast_gen2.pem", .utc(2037, 3, 1), .builtIn, .deviceCertificateNotTrusted, .expired),
        .valid("fugu.pem", april2016, .builtIn, "-6394818897508095075", .unrestricted),
        .invalid("unchained.pem", april2016, .builtIn, .deviceCertificateNotTrusted, .untrusted),
        .invalid("cast_root_ca.pem", april2016, .builtIn, .malformedClientCertificate),
        .valid("chromecast_audio.pem", april2016, .builtIn, "4ZZDZJ FA8FCA7EFE3C", .audioOnly),
        .valid("mtk_audio_dev.pem", .utc(2015, 1, 1), .builtIn, "MediaTek Audio Dev Test", .audioOnly),
        .valid("vizio.pem", april2016, .builtIn, "9V0000VB FA8FCA784D01", .unrestricted),
        .valid("audio_ref_dev_test_chain_3.pem", april2016, .builtIn, "Audio Reference Dev Test", .audioOnly),
        .valid("expired_root.pem", april2016, .lastCertificate, "CastDevice", .unrestricted),
        .invalid(
            "violates_root_pathlen_constraint.pem",
            april2016,
            .lastCertificate,
            .deviceCertificateNotTrusted,
            .pathLengthExceeded
        ),
        .invalid("rsa1024_device_cert.pem", april2016, .lastCertificate, .malformedClientCertificate),
        .valid("rsa2048_device_cert.pem", april2016, .lastCertificate, "RSA 2048 Device Cert", .unrestricted),
        .valid("nc.pem", .utc(2020, 4, 1), .lastCertificate, "Device", .unrestricted),
        .invalid(
            "nc_fail.pem",
            .utc(2020, 4, 1),
            .lastCertificate,
            .deviceCertificateNotTrusted,
            .nameConstraintViolation
        ),
    ]

    static let policyRows: [Row] = ["anypolicy", "audioonly", "none"].flatMap { ica in
        ["anypolicy", "audioonly", "foo", "none"].map { leaf in
            .valid(
                "policies_ica_\(ica)_leaf_\(leaf).pem",
                april2016,
                .lastCertificate,
                "Leaf",
                ica == "audioonly" || leaf == "audioonly" ? .audioOnly : .unrestricted
            )
        }
    }

    @Test(arguments: table + policyRows)
    func verificationTable(_ row: Row) throws {
        var certificates = try CastTestData.chain(CastTestData.certificates + row.file)
        let verifier: DeviceCertificateVerifier
        switch row.anchors {
        case .builtIn:
            verifier = try DeviceCertificateVerifier()
        case .lastCertificate:
            verifier = try DeviceCertificateVerifier(trustAnchors: [certificates.removeLast()])
        }
        let leaf = certificates[0]
        let intermediates = Array(certificates.dropFirst())
        if let failure = row.failure {
            do {
                let verified = try verifier.verify(leaf, intermediates: intermediates, at: row.time)
                Issue.record("expected \(failure), got a valid chain for \(verified.commonName)")
            } catch {
                #expect(error.code == failure)
                #expect(error.certificateError?.code == row.pathFailure)
                #expect(error.certificateName != nil)
            }
        } else {
            let verified = try verifier.verify(leaf, intermediates: intermediates, at: row.time)
            #expect(verified.commonName == row.commonName)
            #expect(verified.policy == row.policy)
            #expect(verified.path.first == leaf)
            #expect(verifier.trustAnchors.contains(try #require(verified.path.last)))
        }
    }

    @Test func derEntryPointRejectsNonCertificates() throws {
        let verifier = try DeviceCertificateVerifier()
        let chain = try CastTestData.chain(CastTestData.certificates + "chromecast_gen1.pem")
        let verified = try verifier.verify(
            deviceCertificateDER: chain[0].derBytes,
            intermediatesDER: [chain[1].derBytes],
            at: Self.april2016
        )
        #expect(verified.commonName == "2ZZBG9 FA8FCA3EF91A")
        #expect(throws: DeviceAuthError(.notX509Certificate, reason: "")) {
            try verifier.verify(deviceCertificateDER: [1, 2, 3], intermediatesDER: [], at: Self.april2016)
        }
        #expect(throws: DeviceAuthError(.notX509Certificate, reason: "")) {
            try verifier.verify(deviceCertificateDER: chain[0].derBytes, intermediatesDER: [[]], at: Self.april2016)
        }
    }

    @Test func builtInAnchorsAreGoogleRoots() {
        #expect(CastTrustAnchors.deviceRoots.map(\.subjectCommonName) == ["Cast Root CA", "Eureka Root CA"])
        #expect(CastTrustAnchors.crlRoots.map(\.subjectCommonName) == ["Cast CRL Root CA"])
        #expect(CastTrustAnchors.deviceRoots.allSatisfy { $0.isCA })
    }

    @Test func builtInAnchorsMatchTestData() throws {
        let files = ["roots/cast_root_ca.pem", "roots/eureka_root_ca.pem"]
        #expect(try files.flatMap { try CastTestData.chain($0) } == CastTrustAnchors.deviceRoots)
        #expect(try CastTestData.chain("roots/cast_crl_root_ca.pem") == CastTrustAnchors.crlRoots)
    }

    @Test func errorDescriptionNamesCertificateAndReason() throws {
        let chain = try CastTestData.chain(CastTestData.certificates + "cast_root_ca.pem")
        do {
            _ = try DeviceCertificateVerifier().verify(chain[0], at: Self.april2016)
            Issue.record("expected rejection")
        } catch {
            #expect(error.description.contains("Cast Root CA"))
            #expect(error.description.contains("CA certificate"))
            #expect(error.code.rawValue == 41)
        }
    }
}
