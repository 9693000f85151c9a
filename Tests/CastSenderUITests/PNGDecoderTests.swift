import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSenderUI

/// The PNG decoder and its inflate: images written by a third-party encoder (Python's zlib,
/// at every compression strategy), every colour type, bit depth, filter and Adam7
/// interlacing, then malformed input of every kind.
@Suite struct PNGDecoderTests {
    /// One image the Python encoder writes.
    struct Case: Sendable, CustomStringConvertible {
        var colorType: Int
        var bitDepth: Int
        var interlaced: Bool
        /// `stored`, `fixed` (Z_FIXED) or `dynamic` (level 9).
        var compression: String
        var transparency: Bool = false
        var width = 13
        var height = 11

        var name: String {
            "c\(colorType)-d\(bitDepth)-\(interlaced ? "i" : "p")-\(compression)\(transparency ? "-t" : "")-\(width)x\(height)"
        }
        var description: String { name }
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        let depths: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        for (colorType, bitDepths) in depths.sorted(by: { $0.key < $1.key }) {
            for bitDepth in bitDepths {
                for interlaced in [false, true] {
                    cases.append(
                        Case(colorType: colorType, bitDepth: bitDepth, interlaced: interlaced, compression: "dynamic")
                    )
                }
            }
        }
        cases.append(Case(colorType: 2, bitDepth: 8, interlaced: false, compression: "stored"))
        cases.append(Case(colorType: 6, bitDepth: 8, interlaced: true, compression: "fixed"))
        cases.append(Case(colorType: 0, bitDepth: 8, interlaced: false, compression: "dynamic", transparency: true))
        cases.append(Case(colorType: 2, bitDepth: 16, interlaced: false, compression: "dynamic", transparency: true))
        cases.append(Case(colorType: 3, bitDepth: 4, interlaced: true, compression: "fixed", transparency: true))
        // Sizes smaller than an Adam7 block leave passes empty; a wide image spans blocks.
        cases.append(Case(colorType: 6, bitDepth: 8, interlaced: true, compression: "dynamic", width: 1, height: 1))
        cases.append(Case(colorType: 2, bitDepth: 8, interlaced: true, compression: "dynamic", width: 3, height: 2))
        cases.append(Case(colorType: 2, bitDepth: 8, interlaced: false, compression: "dynamic", width: 300, height: 40))
        return cases
    }()

    /// The samples of pixel (x, y) before scaling: one per channel (a palette index for type 3).
    static func raw(_ x: Int, _ y: Int, channel: Int, depth: Int) -> Int {
        ((x * 37 + y * 11 + channel * 101) * (depth == 16 ? 257 : 1)) % (1 << depth)
    }

    /// What the decoder must produce for pixel (x, y).
    static func expected(_ c: Case, _ x: Int, _ y: Int) -> [UInt8] {
        let depth = c.bitDepth
        func scaled(_ channel: Int) -> UInt8 {
            let value = raw(x, y, channel: channel, depth: depth)
            if depth == 16 { return UInt8(value >> 8) }
            return UInt8(value * 255 / ((1 << depth) - 1))
        }
        switch c.colorType {
        case 0:
            let grey = scaled(0)
            let keyed = c.transparency && raw(x, y, channel: 0, depth: depth) == raw(0, 0, channel: 0, depth: depth)
            return [grey, grey, grey, keyed ? 0 : 255]
        case 2:
            let keyed =
                c.transparency
                && (0..<3).allSatisfy { raw(x, y, channel: $0, depth: depth) == raw(0, 0, channel: $0, depth: depth) }
            return [scaled(0), scaled(1), scaled(2), keyed ? 0 : 255]
        case 3:
            let index = raw(x, y, channel: 0, depth: depth)
            let alpha: UInt8 = c.transparency && index % 3 == 0 ? UInt8((index * 40) % 256) : 255
            return [UInt8((index * 17) % 256), UInt8((index * 53) % 256), UInt8((index * 91) % 256), alpha]
        case 4:
            return [scaled(0), scaled(0), scaled(0), scaled(1)]
        default:
            return [scaled(0), scaled(1), scaled(2), scaled(3)]
        }
    }

    /// A PNG encoder written with Python's `zlib` and `struct`: filters cycle through all five
    /// types row by row, Adam7 passes are extracted as the standard says.
    static let encoder = #"""
        import json, struct, sys, zlib

        def chunk(kind, data):
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)

        def raw(x, y, channel, depth):
            return ((x * 37 + y * 11 + channel * 101) * (257 if depth == 16 else 1)) % (1 << depth)

        def encode(c):
            w, h, ct, d = c["width"], c["height"], c["colorType"], c["bitDepth"]
            channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ct]
            bpp = max(1, channels * d // 8)
            passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)] if c["interlaced"] else [(0, 0, 1, 1)]
            out = bytearray()
            row_number = 0
            for (x0, y0, dx, dy) in passes:
                pw = (w - x0 + dx - 1) // dx
                ph = (h - y0 + dy - 1) // dy
                if pw <= 0 or ph <= 0:
                    continue
                previous = bytearray((pw * channels * d + 7) // 8)
                for py in range(ph):
                    y = y0 + py * dy
                    bits = []
                    for px in range(pw):
                        x = x0 + px * dx
                        for ch in range(channels):
                            bits.append(raw(x, y, ch, d))
                    line = bytearray()
                    if d == 16:
                        for v in bits: line += struct.pack(">H", v)
                    elif d == 8:
                        line += bytes(bits)
                    else:
                        acc, n = 0, 0
                        for v in bits:
                            acc = (acc << d) | v; n += d
                            if n == 8: line.append(acc); acc, n = 0, 0
                        if n: line.append(acc << (8 - n))
                    f = row_number % 5
                    row_number += 1
                    filtered = bytearray(len(line))
                    for i in range(len(line)):
                        a = line[i - bpp] if i >= bpp else 0
                        b = previous[i]
                        cc = previous[i - bpp] if i >= bpp else 0
                        if f == 0: p = 0
                        elif f == 1: p = a
                        elif f == 2: p = b
                        elif f == 3: p = (a + b) // 2
                        else:
                            pa, pb, pc = abs(b - cc), abs(a - cc), abs(a + b - 2 * cc)
                            p = a if pa <= pb and pa <= pc else (b if pb <= pc else cc)
                        filtered[i] = (line[i] - p) & 0xff
                    out.append(f); out += filtered
                    previous = line
            if c["compression"] == "stored":
                data = zlib.compress(bytes(out), 0)
            elif c["compression"] == "fixed":
                o = zlib.compressobj(9, zlib.DEFLATED, 15, 9, zlib.Z_FIXED); data = o.compress(bytes(out)) + o.flush()
            else:
                data = zlib.compress(bytes(out), 9)
            png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, d, ct, 0, 0, 1 if c["interlaced"] else 0))
            png += chunk(b"tEXt", b"Comment\x00an ancillary chunk the decoder skips")
            if ct == 3:
                entries = 1 << d
                png += chunk(b"PLTE", b"".join(bytes([(i * 17) % 256, (i * 53) % 256, (i * 91) % 256]) for i in range(entries)))
                if c["transparency"]:
                    png += chunk(b"tRNS", bytes([((i * 40) % 256) if i % 3 == 0 else 255 for i in range(entries)]))
            elif c["transparency"] and ct == 0:
                png += chunk(b"tRNS", struct.pack(">H", raw(0, 0, 0, d)))
            elif c["transparency"] and ct == 2:
                png += chunk(b"tRNS", struct.pack(">HHH", raw(0, 0, 0, d), raw(0, 0, 1, d), raw(0, 0, 2, d)))
            # The image data split over two IDAT chunks, as encoders do for large images.
            half = len(data) // 2
            png += chunk(b"IDAT", data[:half]) + chunk(b"IDAT", data[half:]) + chunk(b"IEND", b"")
            return png

        cases = json.load(open(sys.argv[1]))
        for c in cases:
            open(sys.argv[2] + "/" + c["name"] + ".png", "wb").write(encode(c))
        """#

    /// Every case written by the Python encoder, by name; encoded once for the suite.
    static let encoded = Task { try await writeCases() }

    static func encodedCases() async throws -> [String: [UInt8]] { try await encoded.value }

    /// Writes every case with the Python encoder and returns the files' bytes by name.
    static func writeCases() async throws -> [String: [UInt8]] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("png-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("encode.py")
        try encoder.write(to: script, atomically: true, encoding: .utf8)
        let json = cases.map { c -> [String: Any] in
            [
                "name": c.name, "colorType": c.colorType, "bitDepth": c.bitDepth, "interlaced": c.interlaced,
                "compression": c.compression, "transparency": c.transparency, "width": c.width, "height": c.height,
            ]
        }
        let casesFile = directory.appendingPathComponent("cases.json")
        try JSONSerialization.data(withJSONObject: json).write(to: casesFile)
        let python = try #require(
            RepositoryPaths.executableOnPath("python3"),
            "python3 is needed to encode the test images"
        )
        let result = try await runProgram(
            python,
            [script.path, casesFile.path, directory.path],
            deadline: .seconds(60)
        )
        try #require(result.status == 0, "the encoder failed: \(result.output)")
        var files: [String: [UInt8]] = [:]
        for c in cases {
            files[c.name] = Array(try Data(contentsOf: directory.appendingPathComponent(c.name + ".png")))
        }
        return files
    }

    @Test(.requires(.python3)) func imagesFromAThirdPartyEncoderDecodeExactly() async throws {
        let files = try await Self.encodedCases()
        let decoder = PNGDecoder()
        for c in Self.cases {
            let bytes = try #require(files[c.name])
            let image: RGBAImage
            do {
                image = try decoder.decode(bytes)
            } catch {
                Issue.record("\(c): \(error)")
                continue
            }
            #expect(image.width == c.width && image.height == c.height, "\(c)")
            var mismatches = 0
            for y in 0..<c.height {
                for x in 0..<c.width {
                    let offset = (y * c.width + x) * 4
                    if Array(image.pixels[offset..<(offset + 4)]) != Self.expected(c, x, y) { mismatches += 1 }
                }
            }
            #expect(mismatches == 0, "\(c): \(mismatches) pixels differ")
        }
    }

    @Test func theVirtualDevicesIconDecodes() throws {
        var picture = PNGImage(width: 3, height: 2, fill: (1, 2, 3, 255))
        picture.setPixel(x: 2, y: 1, to: (9, 8, 7, 6))
        let image = try PNGDecoder().decode(picture.pngData())
        #expect(image.pixel(x: 0, y: 0) == (1, 2, 3, 255))
        #expect(image.pixel(x: 2, y: 1) == (9, 8, 7, 6))
        let icon = try PNGDecoder().decode(DeviceIcon.png())
        #expect(icon.width > 0 && icon.width == icon.height)
    }

    // MARK: Malformed input

    /// A small valid PNG to break.
    static var sample: [UInt8] { PNGImage(width: 4, height: 4, fill: (10, 20, 30, 255)).pngData() }

    /// Rewrites the CRC of the chunk at `offset` so only the intended damage is seen.
    static func fixCRC(_ bytes: inout [UInt8], chunkAt offset: Int) {
        let length =
            Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
            | Int(bytes[offset + 3])
        let crc = CRC32.checksum(Array(bytes[(offset + 4)..<(offset + 8 + length)]))
        for index in 0..<4 {
            bytes[offset + 8 + length + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(index)))
        }
    }

    static func expectError(
        _ bytes: [UInt8],
        _ kind: ImageDecodingError.Kind,
        mentions: String,
        decoder: PNGDecoder = PNGDecoder()
    ) {
        do {
            _ = try decoder.decode(bytes)
            Issue.record("expected \(kind) mentioning \(mentions)")
        } catch {
            #expect(error.kind == kind, "\(error)")
            #expect(error.detail.contains(mentions), "\(error.detail)")
        }
    }

    @Test func malformedPNGsGetTypedErrors() {
        Self.expectError([], .unsupported, mentions: "signature")
        Self.expectError(
            [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 20),
            .unsupported,
            mentions: "signature"
        )
        Self.expectError(Array(Self.sample.prefix(20)), .corruptData, mentions: "runs past the end")
        Self.expectError(Array(Self.sample.prefix(12)), .corruptData, mentions: "truncated")

        var crc = Self.sample
        crc[20] ^= 0xFF
        Self.expectError(crc, .corruptData, mentions: "CRC mismatch in the IHDR chunk")

        var huge = Self.sample
        huge.replaceSubrange(16..<24, with: [0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00])
        Self.fixCRC(&huge, chunkAt: 8)
        Self.expectError(huge, .tooLarge, mentions: "65536×65536")

        var depth = Self.sample
        depth[24] = 3
        Self.fixCRC(&depth, chunkAt: 8)
        Self.expectError(depth, .corruptData, mentions: "bit depth 3")

        var zero = Self.sample
        zero.replaceSubrange(16..<20, with: [0, 0, 0, 0])
        Self.fixCRC(&zero, chunkAt: 8)
        Self.expectError(zero, .corruptData, mentions: "IHDR size 0×4")

        let ihdrEnd = 8 + 12 + 13
        var critical = Self.sample
        let unknown = [0, 0, 0, 0] + Array("ABCD".utf8) + [0, 0, 0, 0]
        critical.insert(contentsOf: unknown, at: ihdrEnd)
        Self.fixCRC(&critical, chunkAt: ihdrEnd)
        Self.expectError(critical, .unsupported, mentions: "critical chunk ABCD")

        var noData = Array(Self.sample.prefix(ihdrEnd))
        noData += [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        Self.expectError(noData, .corruptData, mentions: "no IDAT")

        Self.expectError(
            Self.withImageData(Self.zlib([0x05] + [UInt8](repeating: 0, count: 16), level: 0)),
            .corruptData,
            mentions: "image data holds"
        )
        Self.expectError(
            Self.withImageData(Self.zlib(Self.rows(filter: 7), level: 0)),
            .corruptData,
            mentions: "row filter type 7"
        )
        Self.expectError(Self.withImageData([0x78, 0x9C, 0x03]), .corruptData, mentions: "ends early")
        Self.expectError(Self.withImageData([0x78, 0x9D, 0, 0]), .corruptData, mentions: "check bits")
        Self.expectError(Self.withImageData([0x78, 0xBB, 0, 0, 0, 0]), .unsupported, mentions: "preset dictionaries")
        var adler = Self.zlib(Self.rows(filter: 0), level: 0)
        adler[adler.count - 1] ^= 1
        Self.expectError(Self.withImageData(adler), .corruptData, mentions: "Adler-32")
    }

    @Test func hostileDeflateStreamsAreRefused() {
        // Block type 3.
        Self.expectError(Self.withImageData([0x78, 0x01, 0x07]), .corruptData, mentions: "reserved")
        // A stored block whose length check fails.
        Self.expectError(
            Self.withImageData([0x78, 0x01, 0x01, 0x05, 0x00, 0x00, 0x00]),
            .corruptData,
            mentions: "length check"
        )
        // A fixed block whose first code is a back-reference (distance beyond the output).
        Self.expectError(Self.withImageData([0x78, 0x01, 0x03, 0x02]), .corruptData, mentions: "before the start")
        // A dynamic block whose code-length code is oversubscribed (all 19 lengths 1).
        var bits = BitWriter()
        bits.write(1, 1)  // final
        bits.write(2, 2)  // dynamic
        bits.write(0, 5)
        bits.write(0, 5)
        bits.write(15, 4)  // 19 code-length lengths
        for _ in 0..<19 { bits.write(1, 3) }
        Self.expectError(Self.withImageData([0x78, 0x01] + bits.bytes), .corruptData, mentions: "oversubscribed")
        // A zip bomb: a tiny stream that would inflate far beyond the image's size.
        let bomb = Self.zlibBomb(inflatingTo: 4 << 20)
        #expect(bomb.count < 32 << 10)
        Self.expectError(Self.withImageData(bomb), .tooLarge, mentions: "exceeds")
    }

    @Test func mutatedImagesNeverCrash() async throws {
        let files = try await Self.encodedCases()
        var random = SplitMix64(seed: 0x5EED)
        let seeds = files.values.sorted { $0.count < $1.count }.prefix(6)
        var decoded = 0
        for seed in seeds {
            for _ in 0..<60 {
                var bytes = seed
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    let index = Int.random(in: 8..<bytes.count, using: &random)
                    bytes[index] = UInt8.random(in: 0...255, using: &random)
                }
                if Bool.random(using: &random) {
                    bytes.removeLast(Int.random(in: 0..<min(40, bytes.count - 8), using: &random))
                }
                if (try? PNGDecoder(maximumPixels: 1 << 16).decode(bytes)) != nil { decoded += 1 }
            }
        }
        // Most damage is caught by the CRCs; what decodes must still be a whole image.
        #expect(decoded < 6 * 60)
    }

    // MARK: Helpers

    /// Filter bytes and zeroed rows of the 4×4 RGBA sample.
    static func rows(filter: UInt8) -> [UInt8] {
        (0..<4).flatMap { _ in [filter] + [UInt8](repeating: 0, count: 16) }
    }

    /// The sample with its image data replaced by `zlibData`.
    static func withImageData(_ zlibData: [UInt8]) -> [UInt8] {
        let header = Array(sample.prefix(8 + 12 + 13))
        var idat = [UInt8](repeating: 0, count: 4) + Array("IDAT".utf8) + zlibData + [0, 0, 0, 0]
        let length = UInt32(zlibData.count)
        for index in 0..<4 { idat[index] = UInt8(truncatingIfNeeded: length >> (24 - 8 * UInt32(index))) }
        Self.fixCRC(&idat, chunkAt: 0)
        return header + idat + [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
    }

    /// A zlib stream of stored blocks holding `data` (built here, with its Adler-32).
    static func zlib(_ data: [UInt8], level: Int = 0) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let final: UInt8 = offset + count == data.count ? 1 : 0
            stream += [
                final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF),
            ]
            stream += data[offset..<(offset + count)]
            offset += count
        } while offset < data.count
        let adler = Inflate.adler32(data)
        return stream + (0..<4).map { UInt8(truncatingIfNeeded: adler >> (24 - 8 * UInt32($0))) }
    }

    /// A fixed-Huffman stream that would inflate to `count` zero bytes in a few kilobytes:
    /// one literal, then back-references of 258 bytes at distance 1.
    static func zlibBomb(inflatingTo count: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, 1)  // final
        bits.write(1, 2)  // fixed Huffman
        bits.writeCode(0b0011_0000, length: 8)  // literal 0
        for _ in 0..<(count / 258) {
            bits.writeCode(0b1100_0101, length: 8)  // length 258 (symbol 285)
            bits.writeCode(0, length: 5)  // distance 1
        }
        bits.writeCode(0, length: 7)  // end of block (symbol 256)
        return [0x78, 0x01] + bits.bytes + [0, 0, 0, 0]
    }
}

/// Writes DEFLATE's bit order (least significant bit first) for hand-made streams.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var bit = 0

    mutating func write(_ value: Int, _ count: Int) {
        for index in 0..<count {
            if bit == 0 { bytes.append(0) }
            if value >> index & 1 == 1 { bytes[bytes.count - 1] |= UInt8(1 << bit) }
            bit = (bit + 1) % 8
        }
    }

    /// A Huffman code: most significant bit first.
    mutating func writeCode(_ code: Int, length: Int) {
        for index in stride(from: length - 1, through: 0, by: -1) { write(code >> index & 1, 1) }
    }
}
