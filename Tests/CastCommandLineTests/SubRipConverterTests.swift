import Foundation
import Testing

@testable import CastCommandLine

@Suite struct SubRipConverterTests {
    @Test(arguments: [
        ("00:01:02,500", "00:01:02.500"),
        ("00:00:00,000", "00:00:00.000"),
        ("1:02:03,5", "01:02:03.500"),
        ("10:00:00,05", "10:00:00.050"),
        ("00:01:02.250", "00:01:02.250"),
        ("00:01:02", "00:01:02.000"),
    ])
    func timestamps(srt: String, vtt: String) {
        #expect(SubRipConverter.timestamp(Substring(srt)) == vtt)
    }

    @Test(arguments: ["", "00:61:00,000", "00:00:60,000", "aa:00:00,000", "00:00:01,1234", "00:00:01,", "1,2"])
    func malformedTimestamps(text: String) {
        #expect(SubRipConverter.timestamp(Substring(text)) == nil)
    }

    @Test func bomCRLFNumberingAndStylingTags() {
        let srt =
            "\u{FEFF}1\r\n00:00:01,000 --> 00:00:02,500\r\n<i>Hello</i> <b>there</b>\r\nsecond line\r\n\r\n2\r\n00:01:02,500 --> 00:01:04,000 X1:10 X2:20\r\n<font color=\"red\">Red</font>\r\n"
        let expected = """
            WEBVTT

            00:00:01.000 --> 00:00:02.500
            <i>Hello</i> <b>there</b>
            second line

            00:01:02.500 --> 00:01:04.000
            <font color="red">Red</font>

            """
        #expect(SubRipConverter.webVTT(fromSubRip: srt) == expected)
    }

    @Test func lfAndCROnlyLineEndsAndExtraBlankLines() {
        let lf = "1\n00:00:01,000 --> 00:00:02,000\nA\n\n\n\n2\n00:00:03,000 --> 00:00:04,000\nB"
        let cr = lf.replacingOccurrences(of: "\n", with: "\r")
        let expected = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nA\n\n00:00:03.000 --> 00:00:04.000\nB\n"
        #expect(SubRipConverter.webVTT(fromSubRip: lf) == expected)
        #expect(SubRipConverter.webVTT(fromSubRip: cr) == expected)
    }

    @Test func cueWithoutNumberAndMalformedCuesDropped() {
        let srt =
            "00:00:01,000 --> 00:00:02,000\nNo number\n\n3\nnot a timing line\ntext\n\n4\n00:00:05,000 --> 00:00:06,000\nArrow --> inside\n"
        let expected =
            "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nNo number\n\n00:00:05.000 --> 00:00:06.000\nArrow -> inside\n"
        #expect(SubRipConverter.webVTT(fromSubRip: srt) == expected)
    }

    @Test func latin1BytesAndEmptyInput() {
        let bytes: [UInt8] = Array("1\n00:00:01,000 --> 00:00:02,000\nCaf".utf8) + [0xE9] + [0x0A]
        #expect(SubRipConverter.webVTT(fromSubRip: bytes) == "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nCafé\n")
        #expect(SubRipConverter.webVTT(fromSubRip: "") == "WEBVTT\n")
        #expect(SubRipConverter.webVTT(fromSubRip: [UInt8]()) == "WEBVTT\n")
    }
}
