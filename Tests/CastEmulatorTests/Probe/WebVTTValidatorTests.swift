import Testing

@testable import CastEmulator

@Suite struct WebVTTValidatorTests {
    static let track = """
        WEBVTT - captions

        NOTE a comment

        1
        00:00:01.000 --> 00:00:04.500 align:start
        Hello

        00:05.250 --> 01:00:06.000
        World
        """

    @Test func countsTheCuesOfAValidTrack() throws {
        #expect(try WebVTTValidator.validate(Array(Self.track.utf8), isComplete: true) == 2)
        #expect(try WebVTTValidator.validate(Array(("\u{FEFF}" + Self.track).utf8), isComplete: true) == 2)
        #expect(try WebVTTValidator.validate(Array("WEBVTT".utf8), isComplete: true) == 0)
        #expect(
            try WebVTTValidator.validate(Array("WEBVTT\r\n\r\n00:00.000 --> 00:01.000\r\nx".utf8), isComplete: true)
                == 1
        )
    }

    @Test(arguments: [
        ("00:00:01.000", 1.0 as Double?), ("01:02.345", 62.345), ("10:00:00.000", 36_000), ("00:60.000", nil),
        ("00:00:1.000", nil), ("00:01.00", nil), ("1.000", nil), ("aa:01.000", nil), ("00:00:00:01.000", nil),
        ("-1:00.000", nil), ("00:0:01.000", nil), ("", nil),
    ])
    func timestamps(text: String, seconds: Double?) {
        #expect(WebVTTValidator.timestamp(text) == seconds)
    }

    static let malformed: [(String, String, MediaProbeError.Code)] = [
        ("SRT", "1\n00:00:01,000 --> 00:00:02,000\nHello\n", .notSupported),
        ("no signature", "", .notSupported),
        ("WEBVTTX", "WEBVTTX\n", .notSupported),
        ("bad timing", "WEBVTT\n\n00:01 --> 00:02.000\nx\n", .malformed),
        ("two arrows", "WEBVTT\n\n00:01.000 --> 00:02.000 --> 00:03.000\nx\n", .malformed),
        ("backwards cue", "WEBVTT\n\n00:05.000 --> 00:02.000\nx\n", .malformed),
        ("HTML", "<html><body>Not found</body></html>", .notSupported),
    ]

    @Test(arguments: malformed)
    func rejectsMalformedTracks(name: String, text: String, code: MediaProbeError.Code) {
        #expect(throws: MediaProbeError(code: code, context: name)) {
            try WebVTTValidator.validate(Array(text.utf8), isComplete: true)
        }
    }

    /// A head read cut inside a cue timing line is not a broken track.
    @Test func anUnfinishedLastLineOfAPrefixIsIgnored() throws {
        let bytes = Array(Self.track.utf8)
        for length in 6...bytes.count {
            let prefix = Array(bytes.prefix(length))
            #expect(throws: Never.self) { try WebVTTValidator.validate(prefix, isComplete: false) }
        }
    }
}
