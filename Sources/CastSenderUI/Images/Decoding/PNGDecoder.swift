/// Decodes PNG images (ISO/IEC 15948) to ``RGBAImage``, in Swift alone.
///
/// Every colour type (grey, RGB, palette, grey with alpha, RGBA), every bit depth (1, 2, 4,
/// 8, 16; 16-bit samples keep their high byte), `tRNS` transparency, the five row filters and
/// Adam7 interlacing are read; chunk CRCs and the zlib checksum are checked; ancillary chunks
/// are skipped. Images larger than ``maximumPixels`` are refused before anything is
/// decompressed.
public struct PNGDecoder: Sendable {
    /// The eight bytes every PNG starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The most pixels an image may have. Defaults to 16 megapixels.
    public var maximumPixels: Int

    /// Creates a decoder.
    public init(maximumPixels: Int = 16 << 20) {
        self.maximumPixels = maximumPixels
    }

    /// Whether `bytes` start with the PNG signature.
    public static func isPNG(_ bytes: [UInt8]) -> Bool { bytes.starts(with: signature) }

    private struct Header {
        var width: Int
        var height: Int
        var bitDepth: Int
        var colorType: Int
        var interlaced: Bool

        var channels: Int {
            switch colorType {
            case 0, 3: 1
            case 2: 3
            case 4: 2
            default: 4
            }
        }

        var bitsPerPixel: Int { channels * bitDepth }
        /// Bytes per complete pixel, at least 1 (the filter's "bpp").
        var filterStride: Int { max(1, bitsPerPixel / 8) }

        func rowBytes(width: Int) -> Int { (width * bitsPerPixel + 7) / 8 }
    }

    /// Decodes a PNG.
    /// - Throws: ``ImageDecodingError``: ``ImageDecodingError/Kind/corruptData`` naming the
    ///   chunk or field at fault, ``ImageDecodingError/Kind/unsupported``, or
    ///   ``ImageDecodingError/Kind/tooLarge``.
    public func decode(_ bytes: [UInt8]) throws(ImageDecodingError) -> RGBAImage {
        guard Self.isPNG(bytes) else { throw ImageDecodingError(.unsupported, "not a PNG (no PNG signature)") }
        var offset = Self.signature.count
        var header: Header?
        var palette: [UInt8] = []
        var transparency: [UInt8] = []
        var compressed: [UInt8] = []
        var sawEnd = false
        while offset < bytes.count, !sawEnd {
            guard offset + 12 <= bytes.count else {
                throw ImageDecodingError(.corruptData, "truncated chunk at byte \(offset)")
            }
            let length = Int(Self.uint32(bytes, offset))
            guard length <= Int(Int32.max), offset + 12 + length <= bytes.count else {
                throw ImageDecodingError(.corruptData, "chunk at byte \(offset) runs past the end of the file")
            }
            let typeBytes = Array(bytes[(offset + 4)..<(offset + 8)])
            let type = String(decoding: typeBytes, as: UTF8.self)
            let data = Array(bytes[(offset + 8)..<(offset + 8 + length)])
            let crc = Self.uint32(bytes, offset + 8 + length)
            guard CRC32.checksum(typeBytes + data) == crc else {
                throw ImageDecodingError(.corruptData, "CRC mismatch in the \(type) chunk at byte \(offset)")
            }
            switch type {
            case "IHDR":
                guard header == nil, offset == Self.signature.count else {
                    throw ImageDecodingError(.corruptData, "IHDR is not the first chunk")
                }
                header = try parseHeader(data)
            case "PLTE":
                guard data.count % 3 == 0, (3...768).contains(data.count) else {
                    throw ImageDecodingError(.corruptData, "PLTE holds \(data.count) bytes")
                }
                palette = data
            case "tRNS":
                transparency = data
            case "IDAT":
                guard header != nil else { throw ImageDecodingError(.corruptData, "IDAT before IHDR") }
                compressed += data
            case "IEND":
                sawEnd = true
            default:
                // Bit 5 of the first byte set: ancillary, safe to skip. Critical unknowns are not.
                guard typeBytes[0] & 0x20 != 0 else {
                    throw ImageDecodingError(.unsupported, "critical chunk \(type)")
                }
            }
            offset += 12 + length
        }
        guard let header else { throw ImageDecodingError(.corruptData, "no IHDR chunk") }
        guard !compressed.isEmpty else { throw ImageDecodingError(.corruptData, "no IDAT chunk") }
        if header.colorType == 3, palette.isEmpty {
            throw ImageDecodingError(.corruptData, "palette image without PLTE")
        }
        let expected = try rawSize(header)
        let raw = try Inflate.zlib(compressed, maximumOutput: expected)
        guard raw.count == expected else {
            throw ImageDecodingError(.corruptData, "image data holds \(raw.count) bytes, \(expected) expected")
        }
        return try expand(raw, header: header, palette: palette, transparency: transparency)
    }

    private func parseHeader(_ data: [UInt8]) throws(ImageDecodingError) -> Header {
        guard data.count == 13 else { throw ImageDecodingError(.corruptData, "IHDR holds \(data.count) bytes, not 13") }
        let width = Int(Self.uint32(data, 0))
        let height = Int(Self.uint32(data, 4))
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw ImageDecodingError(.corruptData, "IHDR size \(width)×\(height)")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maximumPixels else {
            throw ImageDecodingError(.tooLarge, "\(width)×\(height) pixels exceed the limit of \(maximumPixels)")
        }
        let bitDepth = Int(data[8])
        let colorType = Int(data[9])
        let allowed: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard let depths = allowed[colorType], depths.contains(bitDepth) else {
            throw ImageDecodingError(.corruptData, "IHDR colour type \(colorType) with bit depth \(bitDepth)")
        }
        guard data[10] == 0, data[11] == 0, data[12] <= 1 else {
            throw ImageDecodingError(.corruptData, "IHDR compression, filter or interlace method is unknown")
        }
        return Header(width: width, height: height, bitDepth: bitDepth, colorType: colorType, interlaced: data[12] == 1)
    }

    /// The decompressed size: one filter byte per row of every pass.
    private func rawSize(_ header: Header) throws(ImageDecodingError) -> Int {
        var total = 0
        for pass in Self.passes(interlaced: header.interlaced) {
            let (width, height) = pass.size(header.width, header.height)
            guard width > 0, height > 0 else { continue }
            total += (header.rowBytes(width: width) + 1) * height
        }
        return total
    }

    private func expand(
        _ raw: [UInt8],
        header: Header,
        palette: [UInt8],
        transparency: [UInt8]
    ) throws(ImageDecodingError) -> RGBAImage {
        var pixels = [UInt8](repeating: 0, count: header.width * header.height * 4)
        var offset = 0
        for pass in Self.passes(interlaced: header.interlaced) {
            let (width, height) = pass.size(header.width, header.height)
            guard width > 0, height > 0 else { continue }
            let rowBytes = header.rowBytes(width: width)
            var previous = [UInt8](repeating: 0, count: rowBytes)
            var row = [UInt8](repeating: 0, count: rowBytes)
            for y in 0..<height {
                let filter = raw[offset]
                for index in 0..<rowBytes { row[index] = raw[offset + 1 + index] }
                offset += rowBytes + 1
                try Self.unfilter(&row, previous: previous, filter: filter, stride: header.filterStride)
                for x in 0..<width {
                    let color = Self.color(
                        row,
                        x: x,
                        header: header,
                        palette: palette,
                        transparency: transparency
                    )
                    let target = ((pass.y0 + y * pass.dy) * header.width + pass.x0 + x * pass.dx) * 4
                    pixels[target] = color.0
                    pixels[target + 1] = color.1
                    pixels[target + 2] = color.2
                    pixels[target + 3] = color.3
                }
                swap(&row, &previous)
            }
        }
        guard let image = RGBAImage(width: header.width, height: header.height, pixels: pixels) else {
            throw ImageDecodingError(.tooLarge, "\(header.width)×\(header.height) pixels")
        }
        return image
    }

    private static func unfilter(
        _ row: inout [UInt8],
        previous: [UInt8],
        filter: UInt8,
        stride: Int
    ) throws(ImageDecodingError) {
        switch filter {
        case 0:
            return
        case 1:
            for index in stride..<row.count { row[index] &+= row[index - stride] }
        case 2:
            for index in 0..<row.count { row[index] &+= previous[index] }
        case 3:
            for index in 0..<row.count {
                let left = index >= stride ? Int(row[index - stride]) : 0
                row[index] &+= UInt8((left + Int(previous[index])) / 2)
            }
        case 4:
            for index in 0..<row.count {
                let a = index >= stride ? Int(row[index - stride]) : 0
                let b = Int(previous[index])
                let c = index >= stride ? Int(previous[index - stride]) : 0
                let p = a + b - c
                let pa = abs(p - a)
                let pb = abs(p - b)
                let pc = abs(p - c)
                row[index] &+= UInt8(pa <= pb && pa <= pc ? a : (pb <= pc ? b : c))
            }
        default:
            throw ImageDecodingError(.corruptData, "row filter type \(filter)")
        }
    }

    /// Sample `channel` of pixel `x` in a row, scaled to 8 bits (16-bit samples keep their
    /// high byte).
    private static func sample(_ row: [UInt8], x: Int, channel: Int, header: Header) -> (value: Int, raw: Int) {
        let index = x * header.channels + channel
        switch header.bitDepth {
        case 16:
            let raw = Int(row[index * 2]) << 8 | Int(row[index * 2 + 1])
            return (raw >> 8, raw)
        case 8:
            let raw = Int(row[index])
            return (raw, raw)
        default:
            let depth = header.bitDepth
            let bit = index * depth
            let byte = Int(row[bit / 8])
            let shift = 8 - depth - bit % 8
            let raw = (byte >> shift) & ((1 << depth) - 1)
            return (header.colorType == 3 ? raw : raw * 255 / ((1 << depth) - 1), raw)
        }
    }

    private static func color(
        _ row: [UInt8],
        x: Int,
        header: Header,
        palette: [UInt8],
        transparency: [UInt8]
    ) -> (UInt8, UInt8, UInt8, UInt8) {
        switch header.colorType {
        case 0:
            let (grey, raw) = sample(row, x: x, channel: 0, header: header)
            let alpha = transparency.count >= 2 && raw == Int(transparency[0]) << 8 | Int(transparency[1]) ? 0 : 255
            return (UInt8(grey), UInt8(grey), UInt8(grey), UInt8(alpha))
        case 2:
            let r = sample(row, x: x, channel: 0, header: header)
            let g = sample(row, x: x, channel: 1, header: header)
            let b = sample(row, x: x, channel: 2, header: header)
            var alpha = 255
            if transparency.count >= 6 {
                let key = (0..<3).map { Int(transparency[$0 * 2]) << 8 | Int(transparency[$0 * 2 + 1]) }
                if key == [r.raw, g.raw, b.raw] { alpha = 0 }
            }
            return (UInt8(r.value), UInt8(g.value), UInt8(b.value), UInt8(alpha))
        case 3:
            let index = sample(row, x: x, channel: 0, header: header).raw
            // An index past the palette is an error in the file; it shows as transparent black.
            guard index * 3 + 2 < palette.count else { return (0, 0, 0, 0) }
            let alpha = index < transparency.count ? transparency[index] : 255
            return (palette[index * 3], palette[index * 3 + 1], palette[index * 3 + 2], alpha)
        case 4:
            let grey = UInt8(sample(row, x: x, channel: 0, header: header).value)
            return (grey, grey, grey, UInt8(sample(row, x: x, channel: 1, header: header).value))
        default:
            return (
                UInt8(sample(row, x: x, channel: 0, header: header).value),
                UInt8(sample(row, x: x, channel: 1, header: header).value),
                UInt8(sample(row, x: x, channel: 2, header: header).value),
                UInt8(sample(row, x: x, channel: 3, header: header).value)
            )
        }
    }

    // MARK: Interlacing

    private struct Pass {
        var x0: Int
        var y0: Int
        var dx: Int
        var dy: Int

        func size(_ width: Int, _ height: Int) -> (Int, Int) {
            ((width - x0 + dx - 1) / dx, (height - y0 + dy - 1) / dy)
        }
    }

    private static func passes(interlaced: Bool) -> [Pass] {
        guard interlaced else { return [Pass(x0: 0, y0: 0, dx: 1, dy: 1)] }
        return [
            Pass(x0: 0, y0: 0, dx: 8, dy: 8), Pass(x0: 4, y0: 0, dx: 8, dy: 8), Pass(x0: 0, y0: 4, dx: 4, dy: 8),
            Pass(x0: 2, y0: 0, dx: 4, dy: 4), Pass(x0: 0, y0: 2, dx: 2, dy: 4), Pass(x0: 1, y0: 0, dx: 2, dy: 2),
            Pass(x0: 0, y0: 1, dx: 1, dy: 2),
        ]
    }

    private static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }
}

/// The CRC-32 of PNG chunks (ISO 3309, polynomial 0xEDB88320, reflected).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
