/// Writes protobuf fields into a buffer sized in advance.
///
/// Messages compute their exact encoded size first (``ProtobufSize``), then write into
/// a buffer of that size, so encoding allocates once. Writing past the reserved size is a
/// programming error and traps.
package struct ProtobufWriter {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// The number of bytes written.
    package private(set) var count = 0

    /// Creates a writer over uninitialized memory of `buffer.count` bytes.
    package init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.base = buffer.baseAddress ?? UnsafeMutablePointer(bitPattern: 1)!
        self.capacity = buffer.count
    }

    /// Encodes a message of known size into a new array.
    package static func encode(size: Int, _ body: (inout ProtobufWriter) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: size) { buffer, initializedCount in
            var writer = ProtobufWriter(buffer)
            body(&writer)
            precondition(writer.count == size, "encoded size differs from the computed size")
            initializedCount = writer.count
        }
    }

    // MARK: Primitives

    @inline(__always)
    private mutating func reserve(_ byteCount: Int) {
        precondition(capacity - count >= byteCount, "protobuf writer overflow")
    }

    /// Writes a varint.
    @inline(__always)
    package mutating func writeVarint(_ value: UInt64) {
        reserve(ProtobufSize.varint(value))
        var value = value
        while value >= 0x80 {
            base[count] = UInt8(truncatingIfNeeded: value) | 0x80
            count += 1
            value >>= 7
        }
        base[count] = UInt8(value)
        count += 1
    }

    /// Writes a tag.
    @inline(__always)
    package mutating func writeTag(_ fieldNumber: Int, _ wireType: ProtobufWireType) {
        writeVarint(UInt64(fieldNumber) << 3 | UInt64(wireType.rawValue))
    }

    /// Writes raw bytes.
    @inline(__always)
    package mutating func writeRaw(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count)
        if let source = bytes.baseAddress {
            (base + count).update(from: source, count: bytes.count)
        }
        count += bytes.count
    }

    /// Writes raw bytes.
    package mutating func writeRaw(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { writeRaw($0) }
    }

    // MARK: Fields

    /// Writes a varint field holding an unsigned value.
    package mutating func writeVarintField(_ fieldNumber: Int, _ value: UInt64) {
        writeTag(fieldNumber, .varint)
        writeVarint(value)
    }

    /// Writes an `int32` or enum field; negative values take 10 bytes.
    package mutating func writeInt32Field(_ fieldNumber: Int, _ value: Int32) {
        writeVarintField(fieldNumber, UInt64(bitPattern: Int64(value)))
    }

    /// Writes a `bool` field.
    package mutating func writeBoolField(_ fieldNumber: Int, _ value: Bool) {
        writeVarintField(fieldNumber, value ? 1 : 0)
    }

    /// Writes a `fixed32` field (little-endian).
    package mutating func writeFixed32Field(_ fieldNumber: Int, _ value: UInt32) {
        writeTag(fieldNumber, .fixed32)
        reserve(4)
        for shift in 0..<4 {
            base[count + shift] = UInt8(truncatingIfNeeded: value >> (8 * shift))
        }
        count += 4
    }

    /// Writes a `fixed64` field (little-endian).
    package mutating func writeFixed64Field(_ fieldNumber: Int, _ value: UInt64) {
        writeTag(fieldNumber, .fixed64)
        reserve(8)
        for shift in 0..<8 {
            base[count + shift] = UInt8(truncatingIfNeeded: value >> (8 * shift))
        }
        count += 8
    }

    /// Writes a `bytes` field.
    package mutating func writeBytesField(_ fieldNumber: Int, _ value: [UInt8]) {
        writeTag(fieldNumber, .lengthDelimited)
        writeVarint(UInt64(value.count))
        writeRaw(value)
    }

    /// Writes a `string` field.
    package mutating func writeStringField(_ fieldNumber: Int, _ value: String) {
        writeTag(fieldNumber, .lengthDelimited)
        let utf8 = value.utf8
        writeVarint(UInt64(utf8.count))
        let done: Void? = utf8.withContiguousStorageIfAvailable { writeRaw($0) }
        if done == nil {
            reserve(utf8.count)
            for byte in utf8 {
                base[count] = byte
                count += 1
            }
        }
    }

    /// Writes an embedded-message field whose encoded size is `size`.
    package mutating func writeMessageField(_ fieldNumber: Int, size: Int, _ body: (inout ProtobufWriter) -> Void) {
        writeTag(fieldNumber, .lengthDelimited)
        writeVarint(UInt64(size))
        let before = count
        body(&self)
        precondition(count - before == size, "embedded message size differs from the computed size")
    }
}

/// Encoded sizes of protobuf values.
package enum ProtobufSize {
    /// The size of `value` as a varint.
    @inline(__always)
    package static func varint(_ value: UInt64) -> Int {
        // 1 + floor(bits / 7), with 0 taking one byte.
        let bits = 64 - (value | 1).leadingZeroBitCount
        return (bits + 6) / 7
    }

    /// The size of a tag.
    @inline(__always)
    package static func tag(_ fieldNumber: Int) -> Int {
        varint(UInt64(fieldNumber) << 3)
    }

    /// The size of a varint field.
    package static func varintField(_ fieldNumber: Int, _ value: UInt64) -> Int {
        tag(fieldNumber) + varint(value)
    }

    /// The size of an `int32` or enum field.
    package static func int32Field(_ fieldNumber: Int, _ value: Int32) -> Int {
        tag(fieldNumber) + varint(UInt64(bitPattern: Int64(value)))
    }

    /// The size of a length-delimited field with `length` bytes of content.
    package static func lengthDelimitedField(_ fieldNumber: Int, length: Int) -> Int {
        tag(fieldNumber) + varint(UInt64(length)) + length
    }
}
