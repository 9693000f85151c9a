import Foundation

/// Writes baseline JPEG files (ITU T.81, JFIF): YCbCr with 4:2:0 chroma, the quantization
/// tables of annex K.1 scaled to a quality, and Huffman tables made for each picture from
/// its own symbol counts (annex K.2), so the built-in catalog's pictures are JPEGs as the
/// CastVideos catalog's are, made by the app.
struct JPEGEncoder {
    /// 1 (smallest) to 100 (best).
    var quality = 85

    /// The luminance and chrominance quantization tables of annex K.1, in natural order.
    private static let luminanceTable: [Int] = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29,
        51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121,
        120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
    ]
    private static let chrominanceTable: [Int] =
        [17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99]
        + [47, 66, 99, 99, 99, 99, 99, 99] + [Int](repeating: 99, count: 32)

    /// The zig-zag sequence (figure A.6): the natural index of each coded position.
    private static let zigZag: [Int] = {
        var order: [Int] = []
        var row = 0
        var column = 0
        for _ in 0..<64 {
            order.append(row * 8 + column)
            if (row + column) % 2 == 0 {
                if column == 7 {
                    row += 1
                } else if row == 0 {
                    column += 1
                } else {
                    row -= 1
                    column += 1
                }
            } else {
                if row == 7 {
                    column += 1
                } else if column == 0 {
                    row += 1
                } else {
                    row += 1
                    column -= 1
                }
            }
        }
        return order
    }()

    /// `cosines[u * 8 + x]` = C(u) · cos((2x + 1)uπ / 16) / 2.
    private static let cosines: [Double] = (0..<64).map { index in
        let u = Double(index / 8)
        let x = Double(index % 8)
        let scale: Double = u == 0 ? 1 / 2.0.squareRoot() : 1
        let angle: Double = (2 * x + 1) * u * Double.pi / 16
        return scale * cos(angle) / 2
    }

    /// The table scaled to the quality as the IJG library scales it.
    private func scaled(_ table: [Int]) -> [Int] {
        let quality = min(100, max(1, self.quality))
        let factor = quality < 50 ? 5000 / quality : 200 - quality * 2
        return table.map { min(255, max(1, ($0 * factor + 50) / 100)) }
    }

    /// Encodes `width` × `height` pixels of packed RGB.
    func encode(rgb: [UInt8], width: Int, height: Int) -> [UInt8] {
        precondition(width > 0 && height > 0 && width <= 65_535 && height <= 65_535 && rgb.count == width * height * 3)
        let luminance = scaled(Self.luminanceTable)
        let chrominance = scaled(Self.chrominanceTable)
        // Planes: Y at full size, Cb and Cr averaged over 2 × 2, each padded to whole MCUs.
        let mcusAcross = (width + 15) / 16
        let mcusDown = (height + 15) / 16
        let lumaWidth = mcusAcross * 16
        let lumaHeight = mcusDown * 16
        var y = [Double](repeating: 0, count: lumaWidth * lumaHeight)
        var cb = [Double](repeating: 0, count: lumaWidth * lumaHeight / 4)
        var cr = [Double](repeating: 0, count: lumaWidth * lumaHeight / 4)
        for row in 0..<lumaHeight {
            for column in 0..<lumaWidth {
                let source = (min(row, height - 1) * width + min(column, width - 1)) * 3
                let red = Double(rgb[source])
                let green = Double(rgb[source + 1])
                let blue = Double(rgb[source + 2])
                y[row * lumaWidth + column] = 0.299 * red + 0.587 * green + 0.114 * blue - 128
                let chroma = (row / 2) * (lumaWidth / 2) + column / 2
                cb[chroma] += (-0.168_736 * red - 0.331_264 * green + 0.5 * blue) / 4
                cr[chroma] += (0.5 * red - 0.418_688 * green - 0.081_312 * blue) / 4
            }
        }
        // Every block's quantized coefficients, in zig-zag order, in the order they are coded.
        var blocks: [(component: Int, coefficients: [Int])] = []
        blocks.reserveCapacity(mcusAcross * mcusDown * 6)
        for mcuRow in 0..<mcusDown {
            for mcuColumn in 0..<mcusAcross {
                for index in 0..<4 {
                    let top = mcuRow * 16 + (index / 2) * 8
                    let left = mcuColumn * 16 + (index % 2) * 8
                    blocks.append((0, transform(y, stride: lumaWidth, top: top, left: left, table: luminance)))
                }
                let top = mcuRow * 8
                let left = mcuColumn * 8
                blocks.append((1, transform(cb, stride: lumaWidth / 2, top: top, left: left, table: chrominance)))
                blocks.append((2, transform(cr, stride: lumaWidth / 2, top: top, left: left, table: chrominance)))
            }
        }
        // Symbol counts for the tables: DC of luminance and chrominance, AC likewise.
        var counts = [[Int]](repeating: [Int](repeating: 0, count: 256), count: 4)
        var predictions = [0, 0, 0]
        for block in blocks {
            let table = block.component == 0 ? 0 : 1
            let difference = block.coefficients[0] - predictions[block.component]
            predictions[block.component] = block.coefficients[0]
            counts[table][Self.category(difference)] += 1
            for symbol in Self.acSymbols(block.coefficients) { counts[2 + table][symbol.symbol] += 1 }
        }
        let tables = counts.map { HuffmanCode(counts: $0) }

        var output: [UInt8] = [0xFF, 0xD8]
        // JFIF 1.01, no density, no thumbnail.
        output += Self.segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        output += Self.segment(0xDB, [0] + Self.zigZag.map { UInt8(luminance[$0]) })
        output += Self.segment(0xDB, [1] + Self.zigZag.map { UInt8(chrominance[$0]) })
        output += Self.segment(
            0xC0,
            [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 3]
                + [1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        )
        for (index, table) in tables.enumerated() {
            let selector = UInt8((index / 2) << 4 | index % 2)
            output += Self.segment(0xC4, [selector] + table.lengthCounts + table.symbols)
        }
        output += Self.segment(0xDA, [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0])
        var writer = BitWriter()
        predictions = [0, 0, 0]
        for block in blocks {
            let table = block.component == 0 ? 0 : 1
            let difference = block.coefficients[0] - predictions[block.component]
            predictions[block.component] = block.coefficients[0]
            let size = Self.category(difference)
            writer.write(tables[table].code(size))
            writer.write(Self.magnitudeBits(difference, size: size), count: size)
            for symbol in Self.acSymbols(block.coefficients) {
                writer.write(tables[2 + table].code(symbol.symbol))
                if symbol.size > 0 {
                    writer.write(Self.magnitudeBits(symbol.value, size: symbol.size), count: symbol.size)
                }
            }
        }
        output += writer.finish()
        output += [0xFF, 0xD9]
        return output
    }

    /// The forward DCT of one 8 × 8 block of `plane` (A.3.3), divided by the table and
    /// rounded, in zig-zag order.
    private func transform(_ plane: [Double], stride: Int, top: Int, left: Int, table: [Int]) -> [Int] {
        var rows = [Double](repeating: 0, count: 64)
        for y in 0..<8 {
            for u in 0..<8 {
                var sum = 0.0
                for x in 0..<8 { sum += Self.cosines[u * 8 + x] * plane[(top + y) * stride + left + x] }
                rows[y * 8 + u] = sum
            }
        }
        var coefficients = [Int](repeating: 0, count: 64)
        for u in 0..<8 {
            for v in 0..<8 {
                var sum = 0.0
                for y in 0..<8 { sum += Self.cosines[v * 8 + y] * rows[y * 8 + u] }
                // Baseline holds DC differences of 11 bits and AC values of 10.
                let limit = u == 0 && v == 0 ? 2047 : 1023
                coefficients[v * 8 + u] = min(limit, max(-limit, Int((sum / Double(table[v * 8 + u])).rounded())))
            }
        }
        return Self.zigZag.map { coefficients[$0] }
    }

    /// The magnitude category of a value (F.1.2.1): the bits its absolute value needs.
    private static func category(_ value: Int) -> Int {
        var magnitude = abs(value)
        var bits = 0
        while magnitude > 0 {
            bits += 1
            magnitude >>= 1
        }
        return bits
    }

    /// The low `size` bits that code `value` (negative values as value − 1).
    private static func magnitudeBits(_ value: Int, size: Int) -> Int {
        value >= 0 ? value : (value - 1) & ((1 << size) - 1)
    }

    /// The run/size symbols of a block's AC coefficients (F.1.2.2), ZRL and EOB included.
    private static func acSymbols(_ coefficients: [Int]) -> [(symbol: Int, value: Int, size: Int)] {
        var symbols: [(Int, Int, Int)] = []
        var run = 0
        let last = (1..<64).last { coefficients[$0] != 0 } ?? 0
        if last > 0 {
            for index in 1...last {
                let value = coefficients[index]
                if value == 0 {
                    run += 1
                    continue
                }
                while run > 15 {
                    symbols.append((0xF0, 0, 0))
                    run -= 16
                }
                let size = category(value)
                symbols.append((run << 4 | size, value, size))
                run = 0
            }
        }
        if last < 63 { symbols.append((0x00, 0, 0)) }
        return symbols
    }

    private static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }

    /// Entropy-coded data: bits from the most significant, 0xFF followed by a stuffed 0x00,
    /// the last byte padded with ones (F.1.2.3).
    private struct BitWriter {
        var bytes: [UInt8] = []
        var accumulator = 0
        var count = 0

        mutating func write(_ code: (bits: Int, length: Int)) { write(code.bits, count: code.length) }

        mutating func write(_ bits: Int, count length: Int) {
            guard length > 0 else { return }
            accumulator = accumulator << length | (bits & ((1 << length) - 1))
            count += length
            while count >= 8 {
                let byte = UInt8((accumulator >> (count - 8)) & 0xFF)
                bytes.append(byte)
                if byte == 0xFF { bytes.append(0) }
                count -= 8
                accumulator &= (1 << count) - 1
            }
        }

        mutating func finish() -> [UInt8] {
            if count > 0 { write((1 << (8 - count)) - 1, count: 8 - count) }
            return bytes
        }
    }
}

/// A Huffman code made from symbol counts as annex K.2 describes: code sizes by repeatedly
/// joining the two least frequent, with a reserved symbol so that no code is all ones, sizes
/// over 16 bits moved down (figure K.3), codes assigned in order of size (annex C).
struct HuffmanCode {
    /// How many codes there are of each length, 1 to 16 (the DHT `BITS`).
    private(set) var lengthCounts: [UInt8]
    /// The symbols in order of code length (the DHT `HUFFVAL`).
    private(set) var symbols: [UInt8]
    private var codes: [Int: (bits: Int, length: Int)] = [:]

    init(counts: [Int]) {
        // Symbols that occur, plus the reserved one (index 256) with the smallest count.
        var frequency = counts.map { $0 }
        frequency.append(1)
        if frequency.prefix(256).allSatisfy({ $0 == 0 }) { frequency[0] = 1 }
        var codeSize = [Int](repeating: 0, count: 257)
        var others = [Int](repeating: -1, count: 257)
        while true {
            // The least frequent (ties: the larger symbol), then the next least.
            var first = -1
            var second = -1
            for index in 0..<257 where frequency[index] > 0 {
                if first < 0 || frequency[index] <= frequency[first] { first = index }
            }
            for index in 0..<257 where frequency[index] > 0 && index != first {
                if second < 0 || frequency[index] <= frequency[second] { second = index }
            }
            guard second >= 0 else { break }
            frequency[first] += frequency[second]
            frequency[second] = 0
            var chain = first
            codeSize[chain] += 1
            while others[chain] >= 0 {
                chain = others[chain]
                codeSize[chain] += 1
            }
            others[chain] = second
            chain = second
            codeSize[chain] += 1
            while others[chain] >= 0 {
                chain = others[chain]
                codeSize[chain] += 1
            }
        }
        var bits = [Int](repeating: 0, count: 33)
        for size in codeSize where size > 0 { bits[size] += 1 }
        // Figure K.3: no code longer than 16 bits.
        var length = 32
        while length > 16 {
            while bits[length] > 0 {
                var shorter = length - 2
                while bits[shorter] == 0 { shorter -= 1 }
                bits[length] -= 2
                bits[length - 1] += 1
                bits[shorter + 1] += 2
                bits[shorter] -= 1
            }
            length -= 1
        }
        // The reserved symbol had the longest code: remove it.
        length = 16
        while bits[length] == 0 { length -= 1 }
        bits[length] -= 1
        lengthCounts = (1...16).map { UInt8(bits[$0]) }
        // Symbols sorted by code size (then by value), as HUFFVAL lists them.
        let ordered = (0..<256).filter { codeSize[$0] > 0 }.sorted {
            codeSize[$0] != codeSize[$1] ? codeSize[$0] < codeSize[$1] : $0 < $1
        }
        symbols = ordered.map { UInt8($0) }
        var code = 0
        var index = 0
        for size in 1...16 {
            for _ in 0..<bits[size] {
                codes[ordered[index]] = (code, size)
                code += 1
                index += 1
            }
            code <<= 1
        }
    }

    func code(_ symbol: Int) -> (bits: Int, length: Int) { codes[symbol] ?? (0, 0) }
}
