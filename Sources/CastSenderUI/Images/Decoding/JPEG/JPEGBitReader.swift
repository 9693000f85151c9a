/// Reads the entropy-coded data of a JPEG scan bit by bit (ITU T.81, F.2.2.5): a 0xFF byte
/// is followed by a stuffed 0x00 that is dropped; any other byte after 0xFF is a marker,
/// where the data stops.
///
/// Past the end of the data (a marker or the end of the file) the reader supplies zero bits,
/// so a decoder may look ahead, and counts them: ``hasOverrun`` tells when a decoder has
/// consumed bits the file does not hold, which means the data was cut short.
///
/// The reader borrows the file's bytes; it lives only inside the closure that lends them.
struct JPEGBitReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The next byte to read.
    private(set) var position: Int
    /// Bits not yet consumed, in the high bits of the word.
    private var buffer: UInt64 = 0
    /// How many bits of `buffer` are valid.
    private var count = 0
    /// How many of the bits at the low end of `buffer` are zeros supplied past the data.
    private var padding = 0
    /// Whether reading stopped at a marker or the end of the bytes.
    private(set) var reachedMarker = false

    init(bytes: UnsafeBufferPointer<UInt8>, position: Int) {
        self.bytes = bytes
        self.position = position
    }

    /// Whether more bits were consumed than the data held.
    var hasOverrun: Bool { count < padding }

    /// Drops what is buffered and goes on reading at `position` (after a restart marker).
    mutating func restart(at position: Int) {
        self.position = position
        buffer = 0
        count = 0
        padding = 0
        reachedMarker = false
    }

    /// Fills the buffer to at least 57 bits.
    @inline(__always)
    private mutating func fill() {
        while count <= 56 {
            var byte: UInt64 = 0
            if !reachedMarker, position < bytes.count {
                let value = bytes[position]
                if value == 0xFF {
                    let next = position + 1 < bytes.count ? bytes[position + 1] : 0xD9
                    if next == 0x00 {
                        byte = 0xFF
                        position += 2
                    } else {
                        reachedMarker = true
                        padding += 8
                    }
                } else {
                    byte = UInt64(value)
                    position += 1
                }
            } else {
                reachedMarker = true
                padding += 8
            }
            buffer |= byte << UInt64(56 - count)
            count += 8
        }
    }

    /// The next `n` bits (1...16) without consuming them.
    @inline(__always)
    mutating func peek(_ n: Int) -> Int {
        if count < n { fill() }
        return Int(truncatingIfNeeded: buffer >> UInt64(64 - n))
    }

    /// Consumes `n` bits.
    @inline(__always)
    mutating func skip(_ n: Int) {
        buffer <<= UInt64(n)
        count -= n
    }

    /// The next `n` bits (0...16) as an unsigned number.
    @inline(__always)
    mutating func bits(_ n: Int) -> Int {
        guard n > 0 else { return 0 }
        let value = peek(n)
        skip(n)
        return value
    }

    /// One bit.
    @inline(__always)
    mutating func bit() -> Bool { bits(1) == 1 }

    /// `n` bits read as the signed magnitude category value of F.2.2.1 (EXTEND).
    @inline(__always)
    mutating func signed(_ n: Int) -> Int {
        guard n > 0 else { return 0 }
        let value = bits(n)
        return value < (1 << (n - 1)) ? value - (1 << n) + 1 : value
    }

    /// Decodes one Huffman symbol with `table`.
    /// - Throws: ``ImageDecodingError/Kind/corruptData`` for a code the table does not hold.
    @inline(__always)
    mutating func decode(_ table: JPEGHuffmanTable) throws(ImageDecodingError) -> Int {
        let prefix = peek(JPEGHuffmanTable.lookupBits)
        let length = Int(table.lookupLengths[prefix])
        if length > 0 {
            skip(length)
            return Int(table.lookupValues[prefix])
        }
        let word = peek(16)
        var length16 = JPEGHuffmanTable.lookupBits + 1
        while length16 <= 16 {
            let code = Int32(word >> (16 - length16))
            if code <= table.maxCode[length16] {
                skip(length16)
                let index = Int(code + table.valueOffset[length16])
                guard index >= 0, index < table.values.count else { break }
                return Int(table.values[index])
            }
            length16 += 1
        }
        throw ImageDecodingError(.corruptData, "a Huffman code not in the table near byte \(position)")
    }

    /// Where the marker that stopped reading is: the first 0xFF from the current position
    /// that starts a marker (after the bits buffered, which came before it).
    func markerPosition() -> Int {
        var index = position
        while index + 1 < bytes.count {
            if bytes[index] == 0xFF, bytes[index + 1] != 0x00, bytes[index + 1] != 0xFF { return index }
            index += 1
        }
        return bytes.count
    }
}
