import Testing

@testable import CastEmulator

@Suite struct MP4ProbeTests {
    /// Reads a byte array by ranges, counting what was read.
    final class RangeReader: @unchecked Sendable {
        // Used from one task at a time in these tests.
        let bytes: [UInt8]
        var bytesRead = 0
        var reads = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        func read(_ offset: Int, _ count: Int) -> [UInt8] {
            reads += 1
            let end = min(bytes.count, offset + count)
            guard offset < end else { return [] }
            bytesRead += end - offset
            return Array(bytes[offset..<end])
        }
    }

    static let expected = MediaProbeResult(
        duration: 8,
        isLive: false,
        tracks: [
            .init(kind: .video, number: 1, width: 320, height: 240),
            .init(kind: .audio, number: 2, language: "eng"),
        ]
    )

    @Test func readsDurationAndTracksOfAFastStartFile() async throws {
        let file = MP4Builder.fastStart()
        let reader = RangeReader(file)
        let result = try await MP4Probe.probe(head: Array(file.prefix(4096)), fileSize: file.count, read: reader.read)
        #expect(result == Self.expected)
        #expect(result.videoSize?.width == 320 && result.videoSize?.height == 240)
        #expect(reader.reads == 0)
    }

    @Test func findsMoovAtTheEndWithRangedReads() async throws {
        let file = MP4Builder.moovAtEnd(mdatSize: 5_000_000)
        let reader = RangeReader(file)
        let result = try await MP4Probe.probe(head: Array(file.prefix(4096)), fileSize: file.count, read: reader.read)
        #expect(result == Self.expected)
        // One header read for the box after mdat, then the moov box itself.
        #expect(reader.reads == 2)
        #expect(reader.bytesRead == MP4Probe.headerReadSize + MP4Builder.movie().count)
    }

    @Test func readsVersionOneHeaders() throws {
        let movie = MP4Builder.box("moov", MP4Builder.mvhd64(timescale: 90_000, duration: 90_000 * 3600))
        let result = try MP4Probe.parseMovie(movie)
        #expect(result.duration == 3600)
        #expect(result.tracks.isEmpty)
    }

    @Test func looksLikeMP4() {
        #expect(MP4Probe.looksLikeMP4(MP4Builder.fastStart()))
        #expect(!MP4Probe.looksLikeMP4(Array("#EXTM3U\n".utf8)))
        #expect(!MP4Probe.looksLikeMP4([0, 0, 0]))
    }

    static let malformedMovies: [(String, [UInt8], MediaProbeError.Code)] = [
        ("empty", [], .noMovie),
        ("header only", MP4Builder.u32(8), .truncated),
        ("size below header", MP4Builder.u32(4) + Array("moov".utf8), .malformed),
        ("size past end", MP4Builder.u32(100) + Array("moov".utf8), .truncated),
        ("no mvhd", MP4Builder.box("moov", []), .malformed),
        ("zero timescale", MP4Builder.box("moov", MP4Builder.mvhd(timescale: 0, duration: 5)), .malformed),
        (
            "mvhd version 7", MP4Builder.box("moov", MP4Builder.box("mvhd", [7] + [UInt8](repeating: 0, count: 99))),
            .malformed
        ),
        ("short mvhd", MP4Builder.box("moov", MP4Builder.box("mvhd", [0, 0, 0, 0, 1])), .truncated),
        (
            "trak without tkhd",
            MP4Builder.box("moov", MP4Builder.mvhd(timescale: 1, duration: 1) + MP4Builder.box("trak", [])),
            .malformed
        ),
        (
            "huge 64-bit child",
            MP4Builder.box("moov", MP4Builder.u32(1) + Array("mvhd".utf8) + MP4Builder.u64(.max)),
            .malformed
        ),
        ("not moov", MP4Builder.box("free", [1, 2, 3]), .noMovie),
    ]

    @Test(arguments: malformedMovies)
    func rejectsMalformedMovies(name: String, bytes: [UInt8], code: MediaProbeError.Code) {
        #expect(throws: MediaProbeError(code: code, context: name)) { try MP4Probe.parseMovie(bytes) }
    }

    @Test func rejectsFilesWithoutMoov() async {
        let file = MP4Builder.fileType + MP4Builder.box("mdat", [UInt8](repeating: 0, count: 10_000))
        let reader = RangeReader(file)
        await #expect(throws: MediaProbeError(code: .noMovie, context: "")) {
            try await MP4Probe.probe(head: Array(file.prefix(64)), fileSize: file.count, read: reader.read)
        }
    }

    @Test func rejectsATopLevelBoxPastTheEnd() {
        let header = MP4Builder.u32(1_000_000) + Array("mdat".utf8)
        #expect(throws: MediaProbeError(code: .truncated, context: "")) {
            try MP4Probe.locate(header: header, at: 0, fileSize: 1000)
        }
    }

    @Test func rejectsAnOversizedMoov() {
        let header = MP4Builder.u32(UInt32(MP4Probe.maximumMovieSize + 1)) + Array("moov".utf8)
        #expect(throws: MediaProbeError(code: .tooLarge, context: "")) {
            try MP4Probe.locate(header: header, at: 0, fileSize: nil)
        }
    }

    @Test func everyTruncationOfAMovieIsReadOrRejected() {
        let movie = MP4Builder.movie()
        for length in 0..<movie.count {
            var bytes = Array(movie.prefix(length))
            // Keep the outer size consistent so the inner boxes are the ones cut.
            if length >= 8 { bytes.replaceSubrange(0..<4, with: MP4Builder.u32(UInt32(length))) }
            do {
                // A cut that falls between boxes leaves a shorter movie.
                let result = try MP4Probe.parseMovie(bytes)
                #expect(result.tracks.count < 2)
            } catch {
                #expect(!error.context.isEmpty)
            }
        }
    }
}
