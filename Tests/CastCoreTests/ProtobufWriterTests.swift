import Testing

@testable import CastCore

@Suite struct ProtobufWriterTests {
    /// Varint vectors derived from the encoding rule: 7 bits per byte, least significant
    /// group first, high bit set on every byte but the last.
    static let varints: [(UInt64, [UInt8])] = [
        (0, [0x00]),
        (1, [0x01]),
        (127, [0x7F]),
        // 128 = 0b1_0000000: low group 0 with continuation, then 1.
        (128, [0x80, 0x01]),
        // 300 = 0b10_0101100: low group 0x2C | 0x80 = 0xAC, then 0b10 = 0x02.
        (300, [0xAC, 0x02]),
        // 2^32: bit 32 lies in the fifth group (bits 28...34) at position 4, 0x10.
        (1 << 32, [0x80, 0x80, 0x80, 0x80, 0x10]),
        // 2^63: nine empty groups cover bits 0...62; bit 63 is the tenth byte's bit 0.
        (1 << 63, [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]),
        (UInt64.max, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
    ]

    static func encode(_ body: (inout ProtobufWriter) -> Void, size: Int) -> [UInt8] {
        ProtobufWriter.encode(size: size, body)
    }

    @Test(arguments: varints)
    func varint(value: UInt64, expected: [UInt8]) {
        #expect(ProtobufSize.varint(value) == expected.count)
        #expect(Self.encode({ $0.writeVarint(value) }, size: expected.count) == expected)
    }

    @Test func negativeInt32TakesTenBytes() {
        // int32 -1 is sign-extended to 64 bits: all ones, which is UInt64.max on the wire.
        let expected: [UInt8] = [0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]
        #expect(ProtobufSize.int32Field(1, -1) == 11)
        #expect(Self.encode({ $0.writeInt32Field(1, -1) }, size: 11) == expected)
        // int32.min = 0xFFFFFFFF80000000 as 64 bits.
        let minimum: [UInt8] = [0x08, 0x80, 0x80, 0x80, 0x80, 0xF8, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]
        #expect(Self.encode({ $0.writeInt32Field(1, .min) }, size: 11) == minimum)
    }

    @Test func fixedWidthIsLittleEndian() {
        // Tag for field 1 wire type 5 is 0x0D; for wire type 1 it is 0x09.
        #expect(Self.encode({ $0.writeFixed32Field(1, 0x1234_5678) }, size: 5) == [0x0D, 0x78, 0x56, 0x34, 0x12])
        #expect(
            Self.encode({ $0.writeFixed64Field(1, 0x0102_0304_0506_0708) }, size: 9) == [
                0x09, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
            ]
        )
    }

    @Test func lengthDelimited() {
        // Field 2, wire type 2: tag (2 << 3) | 2 = 0x12, length 3, then the bytes.
        #expect(Self.encode({ $0.writeBytesField(2, [0x61, 0x62, 0x63]) }, size: 5) == [0x12, 0x03, 0x61, 0x62, 0x63])
        #expect(Self.encode({ $0.writeStringField(2, "abc") }, size: 5) == [0x12, 0x03, 0x61, 0x62, 0x63])
        #expect(Self.encode({ $0.writeStringField(2, "é") }, size: 4) == [0x12, 0x02, 0xC3, 0xA9])
        #expect(ProtobufSize.lengthDelimitedField(2, length: 200) == 1 + 2 + 200)
    }

    @Test func stringsAreWrittenAsUTF8() {
        // U+1F600 is F0 9F 98 80 in UTF-8.
        #expect(Self.encode({ $0.writeStringField(1, "\u{1F600}") }, size: 6) == [0x0A, 0x04, 0xF0, 0x9F, 0x98, 0x80])
    }

    @Test func tagsOfLargeFieldNumbers() {
        // Field 16 wire type 0: (16 << 3) = 128, two bytes. The largest field number,
        // 2^29 - 1, with wire type 0 is 0xFFFFFFF8, five bytes.
        #expect(Self.encode({ $0.writeTag(16, .varint) }, size: 2) == [0x80, 0x01])
        #expect(
            Self.encode({ $0.writeTag(ProtobufReader.maximumFieldNumber, .varint) }, size: 5) == [
                0xF8, 0xFF, 0xFF, 0xFF, 0x0F,
            ]
        )
    }
}
