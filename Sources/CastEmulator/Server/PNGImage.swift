/// An RGBA image that encodes itself as a PNG file, with uncompressed ("stored") deflate
/// blocks: enough for a device icon, with no compression library.
public struct PNGImage: Sendable, Equatable {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// Four bytes (red, green, blue, alpha) per pixel, row by row from the top.
    public private(set) var pixels: [UInt8]

    /// Creates an image filled with one colour.
    /// - Parameters:
    ///   - width: the width in pixels, 1 to 4096.
    ///   - height: the height in pixels, 1 to 4096.
    ///   - fill: the red, green, blue and alpha of every pixel.
    public init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)) {
        precondition((1...4096).contains(width) && (1...4096).contains(height), "image size out of range")
        self.width = width
        self.height = height
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for _ in 0..<(width * height) {
            pixels.append(contentsOf: [fill.0, fill.1, fill.2, fill.3])
        }
        self.pixels = pixels
    }

    /// Sets one pixel; coordinates outside the image are ignored.
    public mutating func setPixel(x: Int, y: Int, to colour: (UInt8, UInt8, UInt8, UInt8)) {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return }
        let index = (y * width + x) * 4
        pixels[index] = colour.0
        pixels[index + 1] = colour.1
        pixels[index + 2] = colour.2
        pixels[index + 3] = colour.3
    }

    /// The image as the bytes of a PNG file (8-bit RGBA, no interlacing).
    public func pngData() -> [UInt8] {
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = [UInt8]()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        // Bit depth 8, colour type 6 (RGBA), deflate, adaptive filtering, no interlace.
        header.append(contentsOf: [8, 6, 0, 0, 0])
        Self.appendChunk("IHDR", header, to: &file)
        Self.appendChunk("IDAT", Self.zlibStored(filteredRows()), to: &file)
        Self.appendChunk("IEND", [], to: &file)
        return file
    }

    /// Each row preceded by filter type 0 (none).
    private func filteredRows() -> [UInt8] {
        var raw = [UInt8]()
        raw.reserveCapacity(height * (width * 4 + 1))
        for row in 0..<height {
            raw.append(0)
            raw.append(contentsOf: pixels[(row * width * 4)..<((row + 1) * width * 4)])
        }
        return raw
    }

    /// A zlib stream (RFC 1950) of stored deflate blocks (RFC 1951, BTYPE 00).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        // CMF 0x78: deflate with a 32 KiB window; FLG 0x01 makes CMF*256+FLG a multiple of 31.
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let isLast = offset + count == data.count
            out.append(isLast ? 1 : 0)
            let length = UInt16(count)
            out.append(UInt8(length & 0xFF))
            out.append(UInt8(length >> 8))
            out.append(UInt8(~length & 0xFF))
            out.append(UInt8(~length >> 8))
            out.append(contentsOf: data[offset..<(offset + count)])
            offset += count
        } while offset < data.count
        out.appendBigEndian(Checksums.adler32(data))
        return out
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to file: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        file.appendBigEndian(UInt32(data.count))
        file.append(contentsOf: typeBytes)
        file.append(contentsOf: data)
        file.appendBigEndian(Checksums.crc32(typeBytes + data))
    }
}

extension [UInt8] {
    mutating func appendBigEndian(_ value: UInt32) {
        append(UInt8(truncatingIfNeeded: value >> 24))
        append(UInt8(truncatingIfNeeded: value >> 16))
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value))
    }
}
