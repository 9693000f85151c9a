/// Reads protobuf fields from a contiguous byte buffer without allocating per field.
///
/// The reader walks the buffer once. Each `read…` method checks the wire type against
/// the field's declared type and reports problems as ``ProtobufError`` values naming the
/// message, the field and the absolute byte offset. Nested messages are read by
/// ``nestedReader(for:name:message:)``, which shares the buffer and keeps offsets absolute.
///
/// - Important: The reader borrows the buffer: it must not outlive the closure that
///   provided the pointer.
package struct ProtobufReader {
    /// The largest valid field number.
    package static let maximumFieldNumber = (1 << 29) - 1

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index: Int
    private let end: Int
    /// The protobuf name of the message being read.
    package let messageName: StaticString
    /// Where the message being read starts, as a reported offset.
    package var messageStartOffset: Int { start }
    private let start: Int

    /// Creates a reader over a whole buffer holding one message.
    package init(_ bytes: UnsafeBufferPointer<UInt8>, message: StaticString) {
        self.bytes = bytes
        self.index = 0
        self.start = 0
        self.end = bytes.count
        self.messageName = message
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, message: StaticString) {
        self.bytes = bytes
        self.index = range.lowerBound
        self.start = range.lowerBound
        self.end = range.upperBound
        self.messageName = message
    }

    /// Whether every byte of the message has been read.
    package var isAtEnd: Bool { index >= end }

    /// The index of the next unread byte in the buffer.
    package var currentIndex: Int { index }

    // MARK: Tags

    /// Reads the next tag, or returns `nil` at the end of the message.
    /// - Throws: ``ProtobufError`` for a truncated or overlong tag, field number 0 or above
    ///   2^29 - 1, or wire type 6 or 7.
    @inline(__always)
    package mutating func nextField() throws(ProtobufError) -> ProtobufField? {
        guard index < end else { return nil }
        let tagIndex = index
        let tag: UInt64
        // Most tags are one byte.
        let first = bytes[index]
        if first < 0x80 {
            index += 1
            tag = UInt64(first)
        } else {
            tag = try decodeVarint()
        }
        let number = tag >> 3
        guard number != 0, number <= UInt64(Self.maximumFieldNumber) else {
            throw ProtobufError(
                code: .invalidFieldNumber,
                messageName: messageName.description,
                fieldNumber: number <= UInt64(Int32.max) ? Int(number) : nil,
                offset: tagIndex
            )
        }
        guard let wireType = ProtobufWireType(rawValue: UInt8(tag & 7)) else {
            throw ProtobufError(
                code: .invalidWireType,
                messageName: messageName.description,
                fieldNumber: Int(number),
                offset: tagIndex,
                wireType: Int(tag & 7)
            )
        }
        return ProtobufField(number: Int(number), wireType: wireType, tagIndex: tagIndex)
    }

    // MARK: Scalars

    /// Reads a varint field as its raw 64-bit value.
    @inline(__always)
    package mutating func readVarint(_ field: ProtobufField, name: StaticString) throws(ProtobufError) -> UInt64 {
        try expect(.varint, field, name: name)
        if index < end, bytes[index] < 0x80 {
            let value = UInt64(bytes[index])
            index += 1
            return value
        }
        return try decodeVarint(field: field, name: name)
    }

    /// Reads a `uint64` field.
    package mutating func readUInt64(_ field: ProtobufField, name: StaticString) throws(ProtobufError) -> UInt64 {
        try readVarint(field, name: name)
    }

    /// Reads a `uint32` field; like every protobuf parser, keeps the low 32 bits.
    package mutating func readUInt32(_ field: ProtobufField, name: StaticString) throws(ProtobufError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readVarint(field, name: name))
    }

    /// Reads an `int32` or enum field; negative values arrive as 10-byte varints.
    package mutating func readInt32(_ field: ProtobufField, name: StaticString) throws(ProtobufError) -> Int32 {
        Int32(truncatingIfNeeded: try readVarint(field, name: name))
    }

    /// Reads an `int64` field.
    package mutating func readInt64(_ field: ProtobufField, name: StaticString) throws(ProtobufError) -> Int64 {
        Int64(bitPattern: try readVarint(field, name: name))
    }

    /// Reads a `bool` field: any nonzero varint is `true`.
    package mutating func readBool(_ field: ProtobufField, name: StaticString) throws(ProtobufError) -> Bool {
        try readVarint(field, name: name) != 0
    }

    /// Reads a `fixed32` field (little-endian).
    package mutating func readFixed32(_ field: ProtobufField, name: StaticString) throws(ProtobufError) -> UInt32 {
        try expect(.fixed32, field, name: name)
        guard end - index >= 4 else { throw truncatedFixed(field, name: name) }
        var value: UInt32 = 0
        for shift in 0..<4 {
            value |= UInt32(bytes[index + shift]) << (8 * shift)
        }
        index += 4
        return value
    }

    /// Reads a `fixed64` field (little-endian).
    package mutating func readFixed64(_ field: ProtobufField, name: StaticString) throws(ProtobufError) -> UInt64 {
        try expect(.fixed64, field, name: name)
        guard end - index >= 8 else { throw truncatedFixed(field, name: name) }
        var value: UInt64 = 0
        for shift in 0..<8 {
            value |= UInt64(bytes[index + shift]) << (8 * shift)
        }
        index += 8
        return value
    }

    // MARK: Length-delimited

    /// Reads a length-delimited field and returns the range of its content in the buffer.
    @inline(__always)
    package mutating func readLengthDelimited(
        _ field: ProtobufField,
        name: StaticString
    ) throws(ProtobufError) -> Range<Int> {
        try expect(.lengthDelimited, field, name: name)
        return try readLengthPrefixedRange(field: field, name: name)
    }

    /// Reads a `bytes` field.
    package mutating func readBytes(_ field: ProtobufField, name: StaticString) throws(ProtobufError) -> [UInt8] {
        let range = try readLengthDelimited(field, name: name)
        return Array(UnsafeBufferPointer(rebasing: bytes[range]))
    }

    /// Reads a `string` field, checking that it is valid UTF-8.
    package mutating func readString(_ field: ProtobufField, name: StaticString) throws(ProtobufError) -> String {
        let range = try readLengthDelimited(field, name: name)
        return try string(in: range, field: field, name: name)
    }

    /// The bytes in `range` (as returned by ``readLengthDelimited(_:name:)``).
    package func buffer(in range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[range])
    }

    /// The string held in `range` of a length-delimited `field`, checked to be UTF-8.
    package func string(in range: Range<Int>, field: ProtobufField, name: StaticString) throws(ProtobufError) -> String
    {
        guard let string = Self.validatedString(UnsafeBufferPointer(rebasing: bytes[range])) else {
            throw ProtobufError(
                code: .invalidUTF8,
                messageName: messageName.description,
                fieldName: name.description,
                fieldNumber: field.number,
                offset: range.lowerBound
            )
        }
        return string
    }

    /// Reads an embedded-message field and returns a reader over its content.
    package mutating func nestedReader(
        for field: ProtobufField,
        name: StaticString,
        message: StaticString
    ) throws(ProtobufError) -> ProtobufReader {
        let range = try readLengthDelimited(field, name: name)
        return ProtobufReader(bytes: bytes, range: range, message: message)
    }

    // MARK: Unknown fields

    /// Skips a field this message does not know, and returns the range of its tag and
    /// value in the buffer so the caller can keep the raw bytes.
    /// - Throws: ``ProtobufError`` with code `unsupportedGroup` for group wire types, or
    ///   the errors of the value's encoding.
    package mutating func skip(_ field: ProtobufField) throws(ProtobufError) -> Range<Int> {
        switch field.wireType {
        case .varint:
            _ = try decodeVarint(field: field, name: nil)
        case .fixed64:
            guard end - index >= 8 else { throw truncatedFixed(field, name: nil) }
            index += 8
        case .fixed32:
            guard end - index >= 4 else { throw truncatedFixed(field, name: nil) }
            index += 4
        case .lengthDelimited:
            _ = try readLengthPrefixedRange(field: field, name: nil)
        case .startGroup, .endGroup:
            throw ProtobufError(
                code: .unsupportedGroup,
                messageName: messageName.description,
                fieldNumber: field.number,
                offset: field.tagIndex,
                wireType: Int(field.wireType.rawValue)
            )
        }
        return field.tagIndex..<index
    }

    /// Appends the raw bytes in `range` (as returned by ``skip(_:)``) to `storage`.
    package func appendBytes(in range: Range<Int>, to storage: inout [UInt8]) {
        storage.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
    }

    // MARK: Errors

    /// The error for a required field that was not found.
    package func missingField(_ name: StaticString, number: Int) -> ProtobufError {
        ProtobufError(
            code: .missingRequiredField,
            messageName: messageName.description,
            fieldName: name.description,
            fieldNumber: number,
            offset: messageStartOffset
        )
    }

    // MARK: Internals

    /// Returns the string held in `utf8`, or `nil` when the bytes are not valid UTF-8.
    ///
    /// `String(decoding:as:)` is specialized for byte buffers and replaces invalid
    /// sequences with U+FFFD; its result is always valid UTF-8, so it equals the input
    /// exactly when the input was valid. This is several times faster than the generic
    /// `String(validating:as:)`.
    @inline(__always)
    static func validatedString(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
        // ASCII, the common case for JSON and identifiers, is valid UTF-8 as it is.
        if isASCII(utf8) {
            return String(decoding: utf8, as: UTF8.self)
        }
        var string = String(decoding: utf8, as: UTF8.self)
        guard string.utf8.count == utf8.count else { return nil }
        let same =
            string.utf8.withContiguousStorageIfAvailable { decoded in
                bytesEqual(decoded, utf8)
            }
            ?? {
                string.makeContiguousUTF8()
                return string.utf8.elementsEqual(utf8)
            }()
        return same ? string : nil
    }

    /// Whether every byte is below 0x80, checked 32 bytes per step.
    @inline(__always)
    private static func isASCII(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let count = utf8.count
        let highBits: UInt64 = 0x8080_8080_8080_8080
        var offset = 0
        var seen: UInt64 = 0
        while offset + 32 <= count {
            seen |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            seen |= raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
            seen |= raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)
            seen |= raw.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)
            offset += 32
        }
        while offset + 8 <= count {
            seen |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < count {
            seen |= UInt64(base[offset])
            offset += 1
        }
        return seen & highBits == 0
    }

    /// Compares two buffers of equal length eight bytes at a time.
    @inline(__always)
    package static func bytesEqual(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = lhs.count
        guard count == rhs.count else { return false }
        guard count > 0, let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
        let a = UnsafeRawPointer(left)
        let b = UnsafeRawPointer(right)
        var offset = 0
        while offset + 8 <= count {
            if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset += 8
        }
        while offset < count {
            if left[offset] != right[offset] { return false }
            offset += 1
        }
        return true
    }

    @inline(__always)
    private func expect(
        _ wireType: ProtobufWireType,
        _ field: ProtobufField,
        name: StaticString
    ) throws(ProtobufError) {
        guard field.wireType == wireType else {
            throw ProtobufError(
                code: .wrongWireType,
                messageName: messageName.description,
                fieldName: name.description,
                fieldNumber: field.number,
                offset: field.tagIndex,
                wireType: Int(field.wireType.rawValue)
            )
        }
    }

    private func truncatedFixed(_ field: ProtobufField, name: StaticString?) -> ProtobufError {
        ProtobufError(
            code: .truncatedFixedWidth,
            messageName: messageName.description,
            fieldName: name?.description,
            fieldNumber: field.number,
            offset: index
        )
    }

    @inline(__always)
    private mutating func readLengthPrefixedRange(
        field: ProtobufField,
        name: StaticString?
    ) throws(ProtobufError) -> Range<Int> {
        let lengthIndex = index
        let length: UInt64
        if index < end, bytes[index] < 0x80 {
            length = UInt64(bytes[index])
            index += 1
        } else {
            length = try decodeVarint(field: field, name: name)
        }
        guard length <= UInt64(end - index) else {
            throw ProtobufError(
                code: .lengthPastEnd,
                messageName: messageName.description,
                fieldName: name?.description,
                fieldNumber: field.number,
                offset: lengthIndex
            )
        }
        let start = index
        index += Int(length)
        return start..<index
    }

    /// Decodes a varint of up to 10 bytes at `index`. Bits beyond the 64th in the tenth
    /// byte are dropped, as other protobuf parsers do.
    private mutating func decodeVarint(
        field: ProtobufField? = nil,
        name: StaticString? = nil
    ) throws(ProtobufError) -> UInt64 {
        let start = index
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard index < end else {
                throw varintError(.truncatedVarint, start: start, field: field, name: name)
            }
            let byte = bytes[index]
            index += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
            if shift >= 70 {
                throw varintError(.varintTooLong, start: start, field: field, name: name)
            }
        }
    }

    private func varintError(
        _ code: ProtobufError.Code,
        start: Int,
        field: ProtobufField?,
        name: StaticString?
    ) -> ProtobufError {
        ProtobufError(
            code: code,
            messageName: messageName.description,
            fieldName: name?.description,
            fieldNumber: field?.number,
            offset: start
        )
    }
}

extension ProtobufReader {
    /// Runs `body` with a reader over `bytes`, using the storage in place when it is
    /// contiguous and copying it once otherwise.
    package static func withReader<Result>(
        over bytes: some Collection<UInt8>,
        message: StaticString,
        _ body: (inout ProtobufReader) throws(ProtobufError) -> Result
    ) throws(ProtobufError) -> Result {
        let outcome = bytes.withContiguousStorageIfAvailable { buffer in
            var reader = ProtobufReader(buffer, message: message)
            return Swift.Result { () throws(ProtobufError) -> Result in try body(&reader) }
        }
        if let outcome {
            return try outcome.get()
        }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer { buffer in
            var reader = ProtobufReader(buffer, message: message)
            return Swift.Result { () throws(ProtobufError) -> Result in try body(&reader) }
        }.get()
    }
}
