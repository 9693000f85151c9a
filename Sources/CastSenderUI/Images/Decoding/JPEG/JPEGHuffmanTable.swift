/// A Huffman table of a JPEG file (ITU T.81, annex C): the code lengths and values of a DHT
/// segment, turned into the decoding tables of F.2.2.3 plus a lookup of the first nine bits.
struct JPEGHuffmanTable: Sendable {
    /// Codes of up to this many bits are found with one lookup.
    static let lookupBits = 9

    /// For each nine-bit prefix: the code's length (0: longer than nine bits) and its value.
    private(set) var lookupLengths: [UInt8]
    private(set) var lookupValues: [UInt8]
    /// `maxCode[l]`: the largest code of length `l` (1...16), -1 when there is none; index 17
    /// holds a sentinel larger than any code.
    private(set) var maxCode: [Int32]
    /// `valueOffset[l]`: added to a code of length `l` to index ``values``.
    private(set) var valueOffset: [Int32]
    /// The symbols in code order.
    private(set) var values: [UInt8]

    /// Builds the table from the sixteen counts of codes per length and the symbols.
    /// - Throws: ``ImageDecodingError/Kind/corruptData`` when the counts describe more codes
    ///   than the code space holds or do not match the number of symbols.
    init(counts: [UInt8], values: [UInt8]) throws(ImageDecodingError) {
        guard counts.count == 16 else { throw ImageDecodingError(.corruptData, "DHT holds \(counts.count) lengths") }
        let total = counts.reduce(0) { $0 + Int($1) }
        guard total == values.count, total <= 256 else {
            throw ImageDecodingError(.corruptData, "DHT lists \(total) codes for \(values.count) symbols")
        }
        self.values = values
        maxCode = [Int32](repeating: -1, count: 18)
        valueOffset = [Int32](repeating: 0, count: 18)
        lookupLengths = [UInt8](repeating: 0, count: 1 << Self.lookupBits)
        lookupValues = [UInt8](repeating: 0, count: 1 << Self.lookupBits)
        // Codes are assigned in order of length (C.2): each length continues from the last
        // code of the previous one, shifted left by one bit.
        var code: Int32 = 0
        var index = 0
        for length in 1...16 {
            let count = Int(counts[length - 1])
            if count > 0 {
                // All codes of this length must fit in `length` bits; an all-ones code of the
                // longest length is reserved (F.1.2.1.1).
                guard Int(code) + count <= (1 << length) else {
                    throw ImageDecodingError(.corruptData, "DHT has more codes of \(length) bits than fit")
                }
                valueOffset[length] = Int32(index) - code
                for _ in 0..<count {
                    if length <= Self.lookupBits {
                        let shift = Self.lookupBits - length
                        let first = Int(code) << shift
                        for prefix in first..<(first + (1 << shift)) {
                            lookupLengths[prefix] = UInt8(length)
                            lookupValues[prefix] = values[index]
                        }
                    }
                    code += 1
                    index += 1
                }
                maxCode[length] = code - 1
            }
            code <<= 1
        }
        maxCode[17] = Int32.max
    }
}
