import CastCore
import CastTestSupport
import Testing

@Suite(.requires(.openScreenTestData)) struct CrlBundleTests {
    static let crlFiles = [
        "bad_signature_crl.pb", "bad_signer_cert_crl.pb", "device_revoked_crl.pb", "device_serial_revoked_crl.pb",
        "good_crl.pb", "invalid_time_crl.pb", "issuer_revoked_crl.pb", "issuer_serial_revoked_crl.pb",
    ]

    @Test func everyCrlFileInTheTestDataIsListed() throws {
        let names = try CastTestData.fileNames(in: "receiver/channel").filter { $0.hasSuffix("_crl.pb") }
        #expect(names == Self.crlFiles)
    }

    @Test(arguments: crlFiles)
    func crlFileDecodesAndReencodesExactly(name: String) throws {
        let bytes = try CastTestData.bytes("receiver/channel/\(name)")
        let bundle = try CrlBundle(serializedBytes: bytes)
        #expect(bundle.crls.count == 1)
        let crl = try #require(bundle.crls.first)
        #expect(crl.signature?.count == 256)
        #expect(crl.signerCert?.prefix(2) == [0x30, 0x82])
        let tbs = try crl.decodedTbsCrl()
        #expect(tbs.version == 0)
        // 2019-07-16T08:00:00Z
        #expect(tbs.notBeforeSeconds == 1_563_264_000)
        #expect(tbs.revokedPublicKeyHashes.allSatisfy { $0.count == 32 })
        #expect(tbs.revokedSerialNumberRanges.allSatisfy { $0.issuerPublicKeyHash?.count == 32 })
        #expect(try TbsCrl(serializedBytes: tbs.serializedBytes()) == tbs)
        #expect(tbs.serializedBytes() == crl.tbsCrl)
        #expect(bundle.serializedBytes() == bytes)
    }

    @Test func goodCrlHasConcreteValues() throws {
        let bundle = try CrlBundle(serializedBytes: CastTestData.bytes("receiver/channel/good_crl.pb"))
        let tbs = try #require(bundle.crls.first).decodedTbsCrl()
        // 2020-07-23T08:00:00Z
        #expect(tbs.notAfterSeconds == 1_595_491_200)
        #expect(tbs.revokedPublicKeyHashes.count == 1)
        #expect(tbs.revokedSerialNumberRanges.count == 1)
        let range = try #require(tbs.revokedSerialNumberRanges.first)
        #expect(range.firstSerialNumber == 1334)
        #expect(range.lastSerialNumber == 1434)
        #expect(range.issuerPublicKeyHash?.prefix(4) == [0x4B, 0xB0, 0xF2, 0x5E])
    }

    @Test(arguments: [
        ("device_revoked_crl.pb", 2, 1, UInt64(1_595_491_200)),
        ("issuer_revoked_crl.pb", 2, 1, 1_595_491_200),
        ("device_serial_revoked_crl.pb", 1, 2, 1_595_491_200),
        ("issuer_serial_revoked_crl.pb", 1, 2, 1_595_491_200),
        ("invalid_time_crl.pb", 1, 1, 1_565_942_400),
    ])
    func revocationCounts(name: String, hashes: Int, ranges: Int, notAfter: UInt64) throws {
        let bundle = try CrlBundle(serializedBytes: CastTestData.bytes("receiver/channel/\(name)"))
        let tbs = try #require(bundle.crls.first).decodedTbsCrl()
        #expect(tbs.revokedPublicKeyHashes.count == hashes)
        #expect(tbs.revokedSerialNumberRanges.count == ranges)
        #expect(tbs.notAfterSeconds == notAfter)
    }

    @Test func issuerSerialRangeValues() throws {
        let bundle = try CrlBundle(serializedBytes: CastTestData.bytes("receiver/channel/issuer_serial_revoked_crl.pb"))
        let ranges = try #require(bundle.crls.first).decodedTbsCrl().revokedSerialNumberRanges
        #expect(ranges.map(\.firstSerialNumber) == [1334, 32])
        #expect(ranges.map(\.lastSerialNumber) == [1434, 62])
    }

    @Test func tbsCrlEncodesByHand() throws {
        let tbs = TbsCrl(
            version: 0,
            notBeforeSeconds: 300,
            revokedPublicKeyHashes: [[0xAB]],
            revokedSerialNumberRanges: [SerialNumberRange(firstSerialNumber: 1, lastSerialNumber: 2)]
        )
        let expected: [UInt8] = [
            0x08, 0x00,  // version = 0 (present)
            0x10, 0xAC, 0x02,  // not_before_seconds = 300
            0x22, 0x01, 0xAB,  // revoked_public_key_hashes
            0x2A, 0x04, 0x10, 0x01, 0x18, 0x02,  // revoked_serial_number_ranges { first 1, last 2 }
        ]
        #expect(tbs.serializedBytes() == expected)
        #expect(try TbsCrl(serializedBytes: expected) == tbs)
    }

    @Test func crlWithoutTbsDecodesAsEmpty() throws {
        #expect(try Crl().decodedTbsCrl() == TbsCrl())
    }

    @Test func truncatedNestedCrlReportsAbsoluteOffset() {
        // crls (field 1) of length 3 holding tbs_crl (field 1) declaring 5 bytes with 1 present.
        let error = #expect(throws: ProtobufError.self) {
            try CrlBundle(serializedBytes: [0x0A, 0x03, 0x0A, 0x05, 0x00])
        }
        #expect(error?.code == .lengthPastEnd)
        #expect(error?.messageName == "Crl")
        #expect(error?.fieldName == "tbs_crl")
        #expect(error?.offset == 3)
    }
}
