import Testing

@testable import CastEmulator

@Suite struct DASHManifestTests {
    static func mpd(_ attributes: String, periods: Int = 1) -> [UInt8] {
        let body = String(
            repeating: "<Period id=\"p\"><AdaptationSet mimeType=\"video/mp4\"/></Period>",
            count: periods
        )
        return Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- generated -->
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" \(attributes) profiles="urn:mpeg:dash:profile:isoff-live:2011">
            \(body)
            </MPD>
            """.utf8
        )
    }

    @Test func aStaticManifestHasItsPresentationDuration() throws {
        let manifest = try DASHManifest.parse(Self.mpd(#"type="static" mediaPresentationDuration="PT1M34.5S""#))
        #expect(manifest == DASHManifest(isDynamic: false, duration: 94.5, periodCount: 1))
        #expect(DASHManifest.looksLikeMPD(Self.mpd("")))
    }

    @Test func aDynamicManifestIsLive() throws {
        let manifest = try DASHManifest.parse(Self.mpd("type='dynamic' availabilityStartTime='2026-01-01T00:00:00Z'"))
        #expect(manifest.isDynamic)
        #expect(manifest.duration == nil)
    }

    @Test(arguments: [
        ("PT10S", 10.0 as Double?), ("PT1H", 3600), ("PT1H2M3.25S", 3723.25), ("P1DT1S", 86_401), ("P1W", 604_800),
        ("P1Y", 31_536_000), ("P1M", 2_592_000), ("PT0S", 0), ("PT", nil), ("P", nil), ("10S", nil), ("PT1X", nil),
        ("PT-1S", nil), ("PTT1S", nil), ("PT1.2.3S", nil), ("P1S", nil), ("PT1e9S", nil),
    ])
    func isoDurations(text: String, seconds: Double?) {
        #expect(DASHManifest.isoDuration(text) == seconds)
    }

    static let malformed: [(String, [UInt8], MediaProbeError.Code)] = [
        ("no MPD", Array("<html><body>MPD</body></html>".utf8), .notSupported),
        ("MPDX element", Array("<MPDX type=\"static\"/>".utf8), .notSupported),
        ("unclosed start tag", Array("<MPD type=\"static\"".utf8), .malformed),
        ("unquoted attribute", Array("<MPD type=static>".utf8), .malformed),
        ("unterminated attribute", Array("<MPD type=\"static>".utf8), .malformed),
        ("unknown type", mpd(#"type="sometimes""#), .malformed),
        ("bad duration", mpd(#"mediaPresentationDuration="1:30""#), .malformed),
        ("oversized", Array(repeating: 0x20, count: DASHManifest.maximumSize + 1), .tooLarge),
    ]

    @Test(arguments: malformed)
    func rejectsMalformedManifests(name: String, bytes: [UInt8], code: MediaProbeError.Code) {
        #expect(throws: MediaProbeError(code: code, context: name)) { try DASHManifest.parse(bytes) }
    }

    @Test func countsPeriods() throws {
        #expect(try DASHManifest.parse(Self.mpd("", periods: 3)).periodCount == 3)
        #expect(try DASHManifest.parse(Self.mpd("", periods: 0)).periodCount == 0)
    }

    @Test func everyTruncationIsReadOrRejectedWithoutCrashing() {
        let bytes = Self.mpd(#"type="static" mediaPresentationDuration="PT5S""#)
        for length in 0..<bytes.count {
            if let manifest = try? DASHManifest.parse(Array(bytes.prefix(length))) {
                #expect(manifest.duration == nil || manifest.duration == 5)
            }
        }
    }
}
