import Testing

@testable import CastCore

@Suite struct ProtobufReaderTests {
    /// Reads the first field of `bytes` with `read`, and checks the input was consumed.
    static func readFirst<T>(
        _ bytes: [UInt8],
        _ read: (inout ProtobufReader, ProtobufField) throws(ProtobufError) -> T
    ) throws(ProtobufError) -> T {
        try ProtobufReader.withReader(over: bytes, message: "Test") {
            (reader: inout ProtobufReader) throws(ProtobufError) -> T in
            guard let field = try reader.nextField() else {
                throw ProtobufError(code: .missingRequiredField, messageName: "Test", offset: 0)
            }
            let value = try read(&reader, field)
            #expect(reader.isAtEnd)
            return value
        }
    }

    @Test(arguments: ProtobufWriterTests.varints)
    func varint(value: UInt64, encoding: [UInt8]) throws {
        #expect(
            try Self.readFirst([0x08] + encoding) { r, f throws(ProtobufError) in try r.readUInt64(f, name: "v") }
                == value
        )
    }

    @Test func negativeInt32() throws {
        let minusOne: [UInt8] = [0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]
        #expect(try Self.readFirst(minusOne) { r, f throws(ProtobufError) in try r.readInt32(f, name: "v") } == -1)
        #expect(try Self.readFirst(minusOne) { r, f throws(ProtobufError) in try r.readInt64(f, name: "v") } == -1)
        // A 5-byte encoding of 0xFFFFFFFF, as some writers emit for int32 -1, also reads as -1.
        let short: [UInt8] = [0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]
        #expect(try Self.readFirst(short) { r, f throws(ProtobufError) in try r.readInt32(f, name: "v") } == -1)
    }

    @Test func uint32KeepsTheLow32Bits() throws {
        let bytes: [UInt8] = [0x08, 0x80, 0x80, 0x80, 0x80, 0x10]  // 2^32
        #expect(try Self.readFirst(bytes) { r, f throws(ProtobufError) in try r.readUInt32(f, name: "v") } == 0)
    }

    @Test func boolIsAnyNonzeroVarint() throws {
        #expect(
            try Self.readFirst([0x08, 0x00]) { r, f throws(ProtobufError) in try r.readBool(f, name: "v") } == false
        )
        #expect(
            try Self.readFirst([0x08, 0x02]) { r, f throws(ProtobufError) in try r.readBool(f, name: "v") } == true
        )
    }

    @Test func fixedWidth() throws {
        let fixed32: [UInt8] = [0x0D, 0x78, 0x56, 0x34, 0x12]
        let fixed64: [UInt8] = [0x09, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01]
        #expect(
            try Self.readFirst(fixed32) { r, f throws(ProtobufError) in try r.readFixed32(f, name: "v") } == 0x1234_5678
        )
        #expect(
            try Self.readFirst(fixed64) { r, f throws(ProtobufError) in try r.readFixed64(f, name: "v") }
                == 0x0102_0304_0506_0708
        )
    }

    @Test func lengthDelimited() throws {
        let bytes: [UInt8] = [0x12, 0x03, 0x61, 0x62, 0x63]
        #expect(
            try Self.readFirst(bytes) { r, f throws(ProtobufError) in try r.readBytes(f, name: "v") } == [
                0x61, 0x62, 0x63,
            ]
        )
        #expect(try Self.readFirst(bytes) { r, f throws(ProtobufError) in try r.readString(f, name: "v") } == "abc")
        #expect(
            try Self.readFirst([0x12, 0x00]) { r, f throws(ProtobufError) in try r.readString(f, name: "v") } == ""
        )
    }

    @Test(arguments: [
        // varint, fixed64, length-delimited, fixed32
        [UInt8]([0x08, 0xAC, 0x02]),
        [0x09, 1, 2, 3, 4, 5, 6, 7, 8],
        [0x0A, 0x02, 0xAA, 0xBB],
        [0x0D, 1, 2, 3, 4],
    ])
    func skipsEveryWireType(bytes: [UInt8]) throws {
        let range = try Self.readFirst(bytes) { r, f throws(ProtobufError) in try r.skip(f) }
        #expect(range == 0..<bytes.count)
    }

    @Test func fieldNumbersUpToTheMaximumAreAccepted() throws {
        let number = try Self.readFirst([0xF8, 0xFF, 0xFF, 0xFF, 0x0F, 0x00]) { r, f throws(ProtobufError) in
            _ = try r.skip(f)
            return f.number
        }
        #expect(number == ProtobufReader.maximumFieldNumber)
    }

    // MARK: Malformed input

    struct Malformed: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var code: ProtobufError.Code
        var offset: Int
        var fieldNumber: Int?
        var testDescription: String { name }
    }

    static let malformed: [Malformed] = [
        Malformed(name: "truncated tag", bytes: [0x80], code: .truncatedVarint, offset: 0),
        Malformed(
            name: "truncated value",
            bytes: [0x08, 0xFF, 0xFF],
            code: .truncatedVarint,
            offset: 1,
            fieldNumber: 1
        ),
        Malformed(
            name: "value over 10 bytes",
            bytes: [0x08] + [UInt8](repeating: 0xFF, count: 10) + [0x01],
            code: .varintTooLong,
            offset: 1,
            fieldNumber: 1
        ),
        Malformed(
            name: "tag over 10 bytes",
            bytes: [UInt8](repeating: 0x80, count: 11) + [0x00],
            code: .varintTooLong,
            offset: 0
        ),
        Malformed(name: "field number 0", bytes: [0x00, 0x00], code: .invalidFieldNumber, offset: 0, fieldNumber: 0),
        Malformed(
            name: "field number 2^29",
            bytes: [0x80, 0x80, 0x80, 0x80, 0x10, 0x00],
            code: .invalidFieldNumber,
            offset: 0,
            fieldNumber: 1 << 29
        ),
        Malformed(name: "wire type 6", bytes: [0x0E], code: .invalidWireType, offset: 0, fieldNumber: 1),
        Malformed(name: "wire type 7", bytes: [0x0F], code: .invalidWireType, offset: 0, fieldNumber: 1),
        Malformed(name: "start group", bytes: [0x0B, 0x0C], code: .unsupportedGroup, offset: 0, fieldNumber: 1),
        Malformed(name: "end group", bytes: [0x0C], code: .unsupportedGroup, offset: 0, fieldNumber: 1),
        Malformed(name: "length past end", bytes: [0x0A, 0x05, 0x00], code: .lengthPastEnd, offset: 1, fieldNumber: 1),
        Malformed(
            name: "huge length",
            bytes: [0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01],
            code: .lengthPastEnd,
            offset: 1,
            fieldNumber: 1
        ),
        Malformed(name: "truncated length", bytes: [0x0A, 0x80], code: .truncatedVarint, offset: 1, fieldNumber: 1),
        Malformed(
            name: "truncated fixed32",
            bytes: [0x0D, 1, 2, 3],
            code: .truncatedFixedWidth,
            offset: 1,
            fieldNumber: 1
        ),
        Malformed(
            name: "truncated fixed64",
            bytes: [0x09, 1, 2, 3, 4, 5, 6, 7],
            code: .truncatedFixedWidth,
            offset: 1,
            fieldNumber: 1
        ),
    ]

    @Test(arguments: malformed)
    func malformedUnknownFieldsAreRejected(_ input: Malformed) {
        let error = #expect(throws: ProtobufError.self) {
            try ProtobufReader.withReader(over: input.bytes, message: "Test") {
                (reader: inout ProtobufReader) throws(ProtobufError) in
                while let field = try reader.nextField() {
                    _ = try reader.skip(field)
                }
            }
        }
        #expect(error?.code == input.code)
        #expect(error?.offset == input.offset)
        #expect(error?.fieldNumber == input.fieldNumber)
        #expect(error?.messageName == "Test")
    }

    @Test func wrongWireTypeNamesTheField() {
        let error = #expect(throws: ProtobufError.self) {
            try Self.readFirst([0x0A, 0x00]) { r, f throws(ProtobufError) in try r.readUInt64(f, name: "count") }
        }
        #expect(error?.code == .wrongWireType)
        #expect(error?.fieldName == "count")
        #expect(error?.fieldNumber == 1)
        #expect(error?.wireType == 2)
        #expect(error?.offset == 0)
    }

    @Test(arguments: [
        [UInt8]([0xFF]),  // never valid in UTF-8
        [0xC0, 0x80],  // overlong encoding of U+0000
        [0xED, 0xA0, 0x80],  // UTF-16 surrogate U+D800
        [0xE2, 0x82],  // truncated sequence
        [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
    ])
    func invalidUTF8IsRejected(content: [UInt8]) {
        let bytes = [0x12, UInt8(content.count)] + content
        let error = #expect(throws: ProtobufError.self) {
            try Self.readFirst(bytes) { r, f throws(ProtobufError) in try r.readString(f, name: "text") }
        }
        #expect(error?.code == .invalidUTF8)
        #expect(error?.fieldName == "text")
        #expect(error?.offset == 2)
    }

    @Test(arguments: [
        "",
        "plain ascii that is longer than thirty-two bytes, to cover the wide loop",
        "caf\u{E9}",
        "\u{1F600} at the start",
        "a literal replacement character \u{FFFD} is valid",
        String(repeating: "\u{E9}", count: 40) + "!",
    ])
    func validUTF8IsAccepted(text: String) throws {
        let content = Array(text.utf8)
        let bytes = [0x12] + Self.varintBytes(UInt64(content.count)) + content
        #expect(try Self.readFirst(bytes) { r, f throws(ProtobufError) in try r.readString(f, name: "v") } == text)
    }

    @Test func invalidByteAfterALongASCIIRunIsFound() {
        let content = Array(String(repeating: "a", count: 70).utf8) + [0x80] + Array("bc".utf8)
        let bytes = [0x12, UInt8(content.count)] + content
        let error = #expect(throws: ProtobufError.self) {
            try Self.readFirst(bytes) { r, f throws(ProtobufError) in try r.readString(f, name: "v") }
        }
        #expect(error?.code == .invalidUTF8)
    }

    static func varintBytes(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }

    @Test func nonContiguousInputIsCopiedOnce() throws {
        let bytes: [UInt8] = [0x08, 0xAC, 0x02]
        let value = try ProtobufReader.withReader(over: bytes.lazy.map { $0 }, message: "Test") {
            (reader: inout ProtobufReader) throws(ProtobufError) -> UInt64 in
            guard let field = try reader.nextField() else { return 0 }
            return try reader.readUInt64(field, name: "v")
        }
        #expect(value == 300)
    }

    @Test func errorDescriptionSaysWhatAndWhere() {
        let error = ProtobufError(
            code: .invalidUTF8,
            messageName: "CastMessage",
            fieldName: "source_id",
            fieldNumber: 2,
            offset: 4
        )
        #expect(
            error.description == "CastMessage.source_id (field 2) at byte offset 4: string field is not valid UTF-8"
        )
        #expect(error.code.rawValue == 6)
        #expect(error.code.description == "invalidUTF8")
        #expect(
            ProtobufError(code: .invalidWireType, messageName: "M", fieldNumber: 3, offset: 9, wireType: 7).description
                == "M (field 3) at byte offset 9: invalid wire type 7"
        )
    }
}
