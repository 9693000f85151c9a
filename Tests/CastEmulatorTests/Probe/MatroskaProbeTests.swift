import CastTestSupport
import Testing

@testable import CastEmulator

@Suite struct MatroskaProbeTests {
    typealias B = MatroskaBuilder

    @Test func readsDurationAndTracks() throws {
        let result = try MatroskaProbe.probe(head: B.typical(), isComplete: true)
        #expect(result.duration == 5)
        #expect(!result.isLive)
        #expect(result.tracks.map(\.kind) == [.video, .audio])
        #expect(result.tracks.map(\.codec) == ["V_VP9", "A_OPUS"])
        #expect(result.tracks.map(\.number) == [1, 2])
        // Matroska's default language is English; "fre" is kept as written.
        #expect(result.tracks.map(\.language) == ["eng", "fre"])
        #expect(result.videoSize?.width == 640 && result.videoSize?.height == 360)
    }

    @Test func readsAFloat32DurationAndATimecodeScale() throws {
        let info = B.master(0x1549_A966, [B.uint(0x2A_D7B1, 1_000), B.float32(0x4489, 2_500_000)])
        let bytes = B.file(segment: [info, B.tracks([B.audioTrack(language: nil)])], docType: "matroska")
        let result = try MatroskaProbe.probe(head: bytes, isComplete: true)
        #expect(result.duration == 2.5)
        #expect(result.tracks.map(\.kind) == [.audio])
    }

    @Test func subtitleTracksAreText() throws {
        let bytes = B.file(segment: [B.info(durationMilliseconds: 1000), B.tracks([B.textTrack()])])
        let result = try MatroskaProbe.probe(head: bytes, isComplete: true)
        #expect(result.tracks.map(\.kind) == [.text])
        #expect(result.tracks.first?.language == nil)
    }

    @Test func anUnknownSizeSegmentIsLive() throws {
        let result = try MatroskaProbe.probe(
            head: B.typical(durationMilliseconds: 5000, unknownSegmentSize: true),
            isComplete: false
        )
        #expect(result.isLive)
        #expect(result.duration == nil)
        #expect(result.tracks.count == 2)
    }

    @Test func noDurationIsLive() throws {
        let result = try MatroskaProbe.probe(head: B.typical(durationMilliseconds: nil), isComplete: true)
        #expect(result.isLive)
        #expect(result.duration == nil)
    }

    /// A live stream's prefix ends anywhere inside its clusters: the headers before them suffice.
    @Test func onlyThePrefixBeforeTheFirstClusterIsRead() throws {
        let header = B.file(
            segment: [B.info(durationMilliseconds: nil), B.tracks()],
            unknownSegmentSize: true
        )
        let stream = header + B.cluster(timecode: 0, blocks: [0, 20]) + [0xFF, 0x00, 0x13]
        let expected = try MatroskaProbe.probe(head: header + B.cluster(timecode: 0, blocks: []), isComplete: false)
        for length in 0...stream.count {
            let prefix = Array(stream.prefix(length))
            if length < 4 {
                #expect(throws: MediaProbeError(code: .notSupported, context: "")) {
                    try MatroskaProbe.probe(head: prefix, isComplete: false)
                }
            } else if length < header.count {
                #expect(throws: MediaProbeError(code: .truncated, context: "")) {
                    try MatroskaProbe.probe(head: prefix, isComplete: false)
                }
            } else {
                #expect(try MatroskaProbe.probe(head: prefix, isComplete: false) == expected)
            }
        }
    }

    @Test func everyTruncationOfAWholeFileIsRejected() {
        let bytes = B.file(segment: [B.info(durationMilliseconds: 1000), B.tracks()])
        #expect((try? MatroskaProbe.probe(head: bytes, isComplete: true)) != nil)
        for length in 0..<bytes.count {
            #expect(throws: MediaProbeError.self) {
                try MatroskaProbe.probe(head: Array(bytes.prefix(length)), isComplete: true)
            }
        }
    }

    static let segmentID: [UInt8] = [0x18, 0x53, 0x80, 0x67]

    static let malformed: [(String, [UInt8], MediaProbeError.Code)] = [
        ("empty", [], .notSupported),
        ("not EBML", Array("RIFF....WAVE".utf8), .notSupported),
        (
            "other document type", B.file(segment: [B.info(durationMilliseconds: 1), B.tracks()], docType: "mka2"),
            .notSupported
        ),
        ("zero ID byte", B.header() + [0x00, 0x81, 0x00], .malformed),
        ("five-byte ID", B.header() + [0x08, 0x01, 0x02, 0x03, 0x04, 0x81, 0x00], .malformed),
        ("zero size byte", B.header() + segmentID + [0x00, 0x00], .malformed),
        ("header of unknown size", [0x1A, 0x45, 0xDF, 0xA3, 0xFF], .truncated),
        ("no Segment", B.header() + B.element(0xEC, [0, 0]), .truncated),
        ("unknown-size element before the Segment", B.header() + [0xEC, 0xFF], .malformed),
        (
            "huge Tracks",
            B.header() + segmentID + B.unknownSize + B.info(durationMilliseconds: 1) + B.id(0x1654_AE6B)
                + [0x01, 0x00, 0x00, 0x00, 0x7F, 0xFF, 0xFF, 0xFF], .truncated
        ),
        (
            "element past its Segment", B.header() + segmentID + B.size(10) + B.id(0x1654_AE6B) + B.size(1000),
            .malformed
        ),
        (
            "unknown-size Info", B.header() + segmentID + B.unknownSize + B.id(0x1549_A966) + [0xFF], .malformed
        ),
        (
            "TimecodeScale 0",
            B.file(segment: [B.master(0x1549_A966, [B.uint(0x2A_D7B1, 0)]), B.tracks()]), .malformed
        ),
        (
            "three-byte Duration",
            B.file(segment: [B.master(0x1549_A966, [B.element(0x4489, [1, 2, 3])]), B.tracks()]), .malformed
        ),
        (
            "NaN Duration", B.file(segment: [B.master(0x1549_A966, [B.float64(0x4489, .nan)]), B.tracks()]),
            .malformed
        ),
        (
            "negative Duration", B.file(segment: [B.master(0x1549_A966, [B.float64(0x4489, -1)]), B.tracks()]),
            .malformed
        ),
        (
            "nine-byte TrackNumber",
            B.file(segment: [
                B.info(durationMilliseconds: 1),
                B.tracks([B.master(0xAE, [B.element(0xD7, Array(repeating: 1, count: 9))])]),
            ]),
            .malformed
        ),
        (
            "TrackEntry without a number",
            B.file(segment: [B.info(durationMilliseconds: 1), B.tracks([B.master(0xAE, [B.uint(0x83, 1)])])]),
            .malformed
        ),
        (
            "absurd PixelWidth",
            B.file(segment: [B.info(durationMilliseconds: 1), B.tracks([B.videoTrack(width: 1 << 20)])]), .malformed
        ),
        (
            "child overrunning its master",
            B.file(segment: [B.info(durationMilliseconds: 1), B.id(0x1654_AE6B) + B.size(3) + [0xAE, 0x85, 0x00]]),
            .truncated
        ),
        ("no Tracks in a whole file", B.file(segment: [B.info(durationMilliseconds: 1)]), .malformed),
    ]

    @Test(arguments: malformed)
    func rejectsMalformedInput(name: String, bytes: [UInt8], code: MediaProbeError.Code) {
        #expect(throws: MediaProbeError(code: code, context: name)) {
            try MatroskaProbe.probe(head: bytes, isComplete: true)
        }
    }

    @Test func tooManyTracksAreRefused() {
        let entries = (1...200).map { B.audioTrack(number: UInt64($0)) }
        #expect(throws: MediaProbeError(code: .tooLarge, context: "")) {
            try MatroskaProbe.probe(
                head: B.file(segment: [B.info(durationMilliseconds: 1), B.tracks(entries)]),
                isComplete: true
            )
        }
    }

    @Test func randomBytesAfterAHeaderNeverCrash() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let tail = (0..<Int(generator.next() % 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let bytes = B.header() + Self.segmentID + tail
            _ = try? MatroskaProbe.probe(head: bytes, isComplete: generator.next() % 2 == 0)
            _ = MediaFetcher.isHeadEnough(bytes)
        }
    }
}
