import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator

@Suite struct ServerPNGImageTests {
    @Test(arguments: [
        ("123456789", UInt32(0xCBF4_3926)),
        ("", UInt32(0)),
        ("The quick brown fox jumps over the lazy dog", UInt32(0x414F_A339)),
    ])
    func crc32MatchesKnownVectors(input: String, expected: UInt32) {
        #expect(Checksums.crc32(Array(input.utf8)) == expected)
    }

    @Test(arguments: [
        ("Wikipedia", UInt32(0x11E6_0398)),
        ("", UInt32(1)),
    ])
    func adler32MatchesKnownVectors(input: String, expected: UInt32) {
        #expect(Checksums.adler32(Array(input.utf8)) == expected)
    }

    @Test func adler32StaysExactOverLongInput() {
        // 100 000 bytes of 0xFF: sums computed in 64 bits without reduction as a reference.
        let bytes = [UInt8](repeating: 0xFF, count: 100_000)
        var a: UInt64 = 1
        var b: UInt64 = 0
        for byte in bytes {
            a += UInt64(byte)
            b += a
        }
        let expected = UInt32((b % 65_521) << 16 | (a % 65_521))
        #expect(Checksums.adler32(bytes) == expected)
    }

    @Test func headerAndChunksAreWellFormed() throws {
        var image = PNGImage(width: 3, height: 2, fill: (1, 2, 3, 255))
        image.setPixel(x: 2, y: 1, to: (9, 8, 7, 6))
        let png = image.pngData()
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let chunks = try Self.chunks(png)
        #expect(chunks.map(\.type) == ["IHDR", "IDAT", "IEND"])
        #expect(chunks[0].data == [0, 0, 0, 3, 0, 0, 0, 2, 8, 6, 0, 0, 0])
        let raw = try Self.inflateStored(chunks[1].data)
        #expect(raw.count == 2 * (1 + 3 * 4))
        #expect(raw[0] == 0 && raw[13] == 0)
        #expect(Array(raw[(13 + 1 + 8)..<(13 + 1 + 12)]) == [9, 8, 7, 6])
        #expect(Array(raw[1..<5]) == [1, 2, 3, 255])
    }

    @Test func largeImageSpansSeveralStoredBlocks() throws {
        let image = PNGImage(width: 200, height: 200, fill: (10, 20, 30, 40))
        let chunks = try Self.chunks(image.pngData())
        let raw = try Self.inflateStored(chunks[1].data)
        #expect(raw.count == 200 * (1 + 200 * 4))
        #expect(raw.count > 65_535 * 2)
    }

    @Test(.requires(.python3)) func pythonZlibReadsTheIcon() async throws {
        let png = DeviceIcon.png()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("icon-\(UUID().uuidString).png")
        try Data(png).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        // An independent decoder: Python's zlib, with every chunk CRC checked.
        let script = """
            import sys, struct, zlib
            d = open(sys.argv[1], 'rb').read(); i = 8; idat = b''
            while i < len(d):
                n, = struct.unpack('>I', d[i:i+4]); t = d[i+4:i+8]; body = d[i+8:i+8+n]
                assert zlib.crc32(t + body) == struct.unpack('>I', d[i+8+n:i+12+n])[0], t
                if t == b'IHDR': w, h = struct.unpack('>II', body[:8])
                if t == b'IDAT': idat += body
                i += 12 + n
            raw = zlib.decompress(idat)
            assert len(raw) == h * (1 + 4 * w)
            print(w, h, len(raw))
            """
        // Awaited, not waited on: a blocked thread would be one of the shared pool's few.
        let (status, output) = try await runProgram("/usr/bin/env", ["python3", "-c", script, file.path])
        #expect(status == 0, "python said: \(output)")
        #expect(output.hasPrefix("48 48 "))
    }

    // MARK: Helpers

    struct Chunk {
        var type: String
        var data: [UInt8]
    }

    struct Malformed: Error {}

    static func chunks(_ png: [UInt8]) throws -> [Chunk] {
        var index = 8
        var chunks: [Chunk] = []
        while index < png.count {
            guard index + 12 <= png.count else { throw Malformed() }
            let length =
                Int(png[index]) << 24 | Int(png[index + 1]) << 16 | Int(png[index + 2]) << 8 | Int(png[index + 3])
            let typeAndData = Array(png[(index + 4)..<(index + 8 + length)])
            let crc = png[(index + 8 + length)..<(index + 12 + length)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard crc == Checksums.crc32(typeAndData) else { throw Malformed() }
            chunks.append(
                Chunk(
                    type: String(decoding: typeAndData.prefix(4), as: UTF8.self),
                    data: Array(typeAndData.dropFirst(4))
                )
            )
            index += 12 + length
        }
        return chunks
    }

    /// Reads a zlib stream made only of stored blocks, checking headers and Adler-32.
    static func inflateStored(_ stream: [UInt8]) throws -> [UInt8] {
        guard stream.count >= 6, (Int(stream[0]) << 8 | Int(stream[1])) % 31 == 0 else { throw Malformed() }
        var index = 2
        var out: [UInt8] = []
        while true {
            let final = stream[index] & 1 == 1
            guard stream[index] >> 1 == 0 else { throw Malformed() }
            let length = Int(stream[index + 1]) | Int(stream[index + 2]) << 8
            let complement = Int(stream[index + 3]) | Int(stream[index + 4]) << 8
            guard length ^ 0xFFFF == complement else { throw Malformed() }
            out += stream[(index + 5)..<(index + 5 + length)]
            index += 5 + length
            if final { break }
        }
        let adler = stream[index..<(index + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard adler == Checksums.adler32(out), index + 4 == stream.count else { throw Malformed() }
        return out
    }
}
