/// DEFLATE decompression (RFC 1951) and the zlib wrapper around it (RFC 1950), for PNG.
///
/// Stored, fixed-Huffman and dynamic-Huffman blocks are decoded with canonical Huffman
/// tables; every length, distance and code is checked against the input and the output so
/// far, and the output is bounded by `maximumOutput`, so hostile input ends in an
/// ``ImageDecodingError`` rather than a crash or unbounded memory.
enum Inflate {
    /// Decompresses a zlib stream (2-byte header, DEFLATE data, Adler-32 of the output).
    /// - Throws: ``ImageDecodingError`` for a bad header, preset dictionary, corrupt data,
    ///   output beyond `maximumOutput` or a checksum mismatch.
    static func zlib(_ input: [UInt8], maximumOutput: Int) throws(ImageDecodingError) -> [UInt8] {
        guard input.count >= 2 else { throw ImageDecodingError(.corruptData, "zlib stream shorter than its header") }
        let cmf = input[0]
        let flags = input[1]
        guard cmf & 0x0F == 8, cmf >> 4 <= 7 else {
            throw ImageDecodingError(.corruptData, "zlib stream does not use DEFLATE with a window up to 32 KiB")
        }
        guard (UInt16(cmf) << 8 | UInt16(flags)) % 31 == 0 else {
            throw ImageDecodingError(.corruptData, "zlib header check bits are wrong")
        }
        guard flags & 0x20 == 0 else { throw ImageDecodingError(.unsupported, "zlib preset dictionaries") }
        var reader = BitReader(input, start: 2)
        let output = try deflate(&reader, maximumOutput: maximumOutput)
        let end = reader.alignedByteOffset
        guard end + 4 <= input.count else { throw ImageDecodingError(.corruptData, "zlib stream lacks its Adler-32") }
        let expected =
            UInt32(input[end]) << 24 | UInt32(input[end + 1]) << 16 | UInt32(input[end + 2]) << 8
            | UInt32(input[end + 3])
        guard adler32(output) == expected else { throw ImageDecodingError(.corruptData, "zlib Adler-32 mismatch") }
        return output
    }

    /// Decompresses raw DEFLATE data starting at the reader's position.
    static func deflate(_ reader: inout BitReader, maximumOutput: Int) throws(ImageDecodingError) -> [UInt8] {
        var output: [UInt8] = []
        var final = false
        while !final {
            final = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0: try stored(&reader, into: &output, maximumOutput: maximumOutput)
            case 1: try compressed(&reader, Huffman.fixedLiterals, Huffman.fixedDistances, &output, maximumOutput)
            case 2:
                let (literals, distances) = try dynamicTables(&reader)
                try compressed(&reader, literals, distances, &output, maximumOutput)
            default: throw ImageDecodingError(.corruptData, "DEFLATE block type 3 is reserved")
            }
        }
        return output
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        var index = 0
        while index < bytes.count {
            // 5552 bytes keep the sums below 2^32 before the modulo.
            let end = min(index + 5552, bytes.count)
            while index < end {
                a &+= UInt32(bytes[index])
                b &+= a
                index += 1
            }
            a %= 65_521
            b %= 65_521
        }
        return b << 16 | a
    }

    // MARK: Blocks

    private static func stored(
        _ reader: inout BitReader,
        into output: inout [UInt8],
        maximumOutput: Int
    ) throws(ImageDecodingError) {
        reader.alignToByte()
        let length = try reader.bytes(2)
        let complement = try reader.bytes(2)
        let count = Int(length[0]) | Int(length[1]) << 8
        let check = Int(complement[0]) | Int(complement[1]) << 8
        guard count ^ 0xFFFF == check else { throw ImageDecodingError(.corruptData, "stored block length check fails") }
        guard output.count + count <= maximumOutput else { throw ImageDecodingError.tooLarge(maximumOutput) }
        output += try reader.bytes(count)
    }

    private static func compressed(
        _ reader: inout BitReader,
        _ literals: Huffman,
        _ distances: Huffman,
        _ output: inout [UInt8],
        _ maximumOutput: Int
    ) throws(ImageDecodingError) {
        while true {
            let symbol = try literals.decode(&reader)
            if symbol < 256 {
                guard output.count < maximumOutput else { throw ImageDecodingError.tooLarge(maximumOutput) }
                output.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            let lengthIndex = symbol - 257
            guard lengthIndex < lengthBase.count else {
                throw ImageDecodingError(.corruptData, "length symbol \(symbol) is invalid")
            }
            let length = lengthBase[lengthIndex] + (try reader.bits(lengthExtra[lengthIndex]))
            let distanceSymbol = try distances.decode(&reader)
            guard distanceSymbol < distanceBase.count else {
                throw ImageDecodingError(.corruptData, "distance symbol \(distanceSymbol) is invalid")
            }
            let distance = distanceBase[distanceSymbol] + (try reader.bits(distanceExtra[distanceSymbol]))
            guard distance <= output.count else {
                throw ImageDecodingError(.corruptData, "distance \(distance) reaches before the start of the data")
            }
            guard output.count + length <= maximumOutput else { throw ImageDecodingError.tooLarge(maximumOutput) }
            let start = output.count - distance
            for offset in 0..<length { output.append(output[start + offset]) }
        }
    }

    private static func dynamicTables(_ reader: inout BitReader) throws(ImageDecodingError) -> (Huffman, Huffman) {
        let literalCount = try reader.bits(5) + 257
        let distanceCount = try reader.bits(5) + 1
        let codeLengthCount = try reader.bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw ImageDecodingError(.corruptData, "dynamic block declares too many codes")
        }
        var codeLengthLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount {
            codeLengthLengths[codeLengthOrder[index]] = try reader.bits(3)
        }
        let codeLengths = try Huffman(lengths: codeLengthLengths)
        var lengths: [Int] = []
        lengths.reserveCapacity(literalCount + distanceCount)
        while lengths.count < literalCount + distanceCount {
            let symbol = try codeLengths.decode(&reader)
            switch symbol {
            case 0...15:
                lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else {
                    throw ImageDecodingError(.corruptData, "code length repeat with nothing to repeat")
                }
                lengths += repeatElement(previous, count: 3 + (try reader.bits(2)))
            case 17:
                lengths += repeatElement(0, count: 3 + (try reader.bits(3)))
            default:
                lengths += repeatElement(0, count: 11 + (try reader.bits(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount else {
            throw ImageDecodingError(.corruptData, "code length repeat runs past the declared codes")
        }
        guard lengths[256] > 0 else { throw ImageDecodingError(.corruptData, "dynamic block has no end-of-block code") }
        let literals = try Huffman(lengths: Array(lengths[0..<literalCount]))
        let distances = try Huffman(lengths: Array(lengths[literalCount...]))
        return (literals, distances)
    }

    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    private static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    private static let lengthExtra = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    private static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145,
        8193, 12289, 16385, 24577,
    ]
    private static let distanceExtra = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]
}

/// Reads DEFLATE's bit stream: least significant bit first within each byte.
struct BitReader {
    private let data: [UInt8]
    private var position: Int
    private var buffer: UInt64 = 0
    private var count = 0

    init(_ data: [UInt8], start: Int = 0) {
        self.data = data
        position = start
    }

    /// The offset of the next whole byte, discarding the bits left in the current one.
    var alignedByteOffset: Int { position - count / 8 }

    mutating func bits(_ wanted: Int) throws(ImageDecodingError) -> Int {
        guard wanted > 0 else { return 0 }
        while count < wanted {
            guard position < data.count else { throw ImageDecodingError(.corruptData, "compressed data ends early") }
            buffer |= UInt64(data[position]) << UInt64(count)
            position += 1
            count += 8
        }
        let value = Int(buffer & ((1 << UInt64(wanted)) - 1))
        buffer >>= UInt64(wanted)
        count -= wanted
        return value
    }

    mutating func alignToByte() {
        let drop = count % 8
        buffer >>= UInt64(drop)
        count -= drop
    }

    /// `n` whole bytes; call after ``alignToByte()``.
    mutating func bytes(_ n: Int) throws(ImageDecodingError) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(n)
        while count >= 8, result.count < n {
            result.append(UInt8(buffer & 0xFF))
            buffer >>= 8
            count -= 8
        }
        let remaining = n - result.count
        guard position + remaining <= data.count else {
            throw ImageDecodingError(.corruptData, "stored block runs past the end of the data")
        }
        result += data[position..<(position + remaining)]
        position += remaining
        return result
    }
}

/// A canonical Huffman code, decoded one bit at a time against per-length counts.
struct Huffman {
    private var counts = [Int](repeating: 0, count: 16)
    private var symbols: [Int] = []

    init(lengths: [Int]) throws(ImageDecodingError) {
        for length in lengths {
            guard (0...15).contains(length) else { throw ImageDecodingError(.corruptData, "code length \(length)") }
            counts[length] += 1
        }
        counts[0] = 0
        var left = 1
        for length in 1...15 {
            left = left * 2 - counts[length]
            guard left >= 0 else { throw ImageDecodingError(.corruptData, "Huffman code lengths are oversubscribed") }
        }
        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
        symbols = [Int](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            symbols[offsets[length]] = symbol
            offsets[length] += 1
        }
    }

    func decode(_ reader: inout BitReader) throws(ImageDecodingError) -> Int {
        var code = 0
        var first = 0
        var index = 0
        for length in 1...15 {
            code |= try reader.bits(1)
            let count = counts[length]
            if code - first < count { return symbols[index + code - first] }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        throw ImageDecodingError(.corruptData, "no Huffman code matches the data")
    }

    static let fixedLiterals: Huffman = {
        var lengths = [Int](repeating: 8, count: 288)
        for index in 144..<256 { lengths[index] = 9 }
        for index in 256..<280 { lengths[index] = 7 }
        // The fixed code is complete by construction.
        return try! Huffman(lengths: lengths)
    }()

    static let fixedDistances: Huffman = {
        // 30 five-bit codes; incomplete but valid (symbols 30 and 31 never occur).
        try! Huffman(lengths: [Int](repeating: 5, count: 30))
    }()
}
