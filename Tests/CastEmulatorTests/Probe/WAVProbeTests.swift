import Testing

@testable import CastEmulator

@Suite struct WAVProbeTests {
    static func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }

    /// 16-bit stereo at 48 kHz: 192,000 bytes a second.
    static func header(dataSize: UInt32, byteRate: UInt32 = 192_000, extraChunk: Bool = false) -> [UInt8] {
        let format: [UInt8] = [1, 0, 2, 0] + le32(48_000) + le32(byteRate) + [4, 0, 16, 0]
        let list: [UInt8] = extraChunk ? Array("LIST".utf8) + le32(3) + [1, 2, 3, 0] : []
        return Array("RIFF".utf8) + le32(36 + dataSize) + Array("WAVE".utf8) + Array("fmt ".utf8) + le32(16)
            + format + list + Array("data".utf8) + le32(dataSize)
    }

    @Test func readsTheDurationFromTheHeaders() throws {
        let result = try WAVProbe.probe(head: Self.header(dataSize: 192_000 * 90))
        #expect(result.duration == 90)
        #expect(result.tracks.map(\.kind) == [.audio])
    }

    @Test func skipsOtherChunksWithTheirPadding() throws {
        #expect(try WAVProbe.probe(head: Self.header(dataSize: 96_000, extraChunk: true)).duration == 0.5)
    }

    static let malformed: [(String, [UInt8], MediaProbeError.Code)] = [
        ("empty", [], .notSupported),
        ("not wave", Array("RIFF\0\0\0\0AVI LIST".utf8), .notSupported),
        ("zero byte rate", header(dataSize: 10, byteRate: 0), .malformed),
        ("no data", Array(header(dataSize: 10).dropLast(8)), .truncated),
        ("short fmt", Array(header(dataSize: 10).prefix(24)), .truncated),
        ("data first", Array("RIFF".utf8) + le32(12) + Array("WAVE".utf8) + Array("data".utf8) + le32(4), .malformed),
        (
            "huge chunk", Array("RIFF".utf8) + le32(12) + Array("WAVE".utf8) + Array("junk".utf8) + le32(.max),
            .truncated
        ),
    ]

    @Test(arguments: malformed)
    func rejectsMalformedHeaders(name: String, bytes: [UInt8], code: MediaProbeError.Code) {
        #expect(throws: MediaProbeError(code: code, context: name)) { try WAVProbe.probe(head: bytes) }
    }

    @Test func everyTruncationIsRejected() {
        let bytes = Self.header(dataSize: 1000)
        for length in 0..<bytes.count {
            #expect(throws: MediaProbeError.self) { try WAVProbe.probe(head: Array(bytes.prefix(length))) }
        }
    }
}
