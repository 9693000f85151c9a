import Testing

@testable import CastEmulator

@Suite struct HLSPlaylistTests {
    static func parse(_ text: String) throws(MediaProbeError) -> HLSPlaylist {
        try HLSPlaylist.parse(Array(text.utf8))
    }

    @Test func readsAMasterPlaylist() throws {
        let text = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360
            low/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2000000
            https://cdn.local/high.m3u8
            """
        #expect(try Self.parse(text) == .master(variants: ["low/index.m3u8", "https://cdn.local/high.m3u8"]))
    }

    @Test func sumsAVodPlaylist() throws {
        let text =
            "#EXTM3U\r\n#EXT-X-TARGETDURATION:2\r\n#EXTINF:2.0,\r\na.ts\r\n#EXTINF:2.0,\r\nb.ts\r\n"
            + "#EXTINF:1.5,title\r\nc.ts\r\n#EXT-X-ENDLIST\r\n"
        guard case .media(let playlist) = try Self.parse(text) else {
            Issue.record("not a media playlist")
            return
        }
        #expect(playlist.listedDuration == 5.5)
        #expect(!playlist.isLive)
        #expect(playlist.probeResult.duration == 5.5)
    }

    @Test func aPlaylistWithoutEndListIsLiveAndItsWindowMoves() throws {
        func live(sequence: Int) -> String {
            "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:\(sequence)\n"
                + (0..<3).map { "#EXTINF:2.0,\nseg\(sequence + $0).ts\n" }.joined()
        }
        guard case .media(let first) = try Self.parse(live(sequence: 10)),
            case .media(let later) = try Self.parse(live(sequence: 12))
        else {
            Issue.record("not media playlists")
            return
        }
        #expect(first.isLive && first.isMovingWindow)
        #expect(first.probeResult.duration == nil)
        #expect(first.probeResult.isLive)
        #expect(first.liveSeekableRange == (20, 26))
        #expect(later.liveSeekableRange == (24, 30))
    }

    @Test func anEventPlaylistIsLiveWithAFixedStart() throws {
        guard case .media(let playlist) = try Self.parse("#EXTM3U\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXTINF:4,\na.ts\n")
        else {
            Issue.record("not a media playlist")
            return
        }
        #expect(playlist.isLive && !playlist.isMovingWindow)
    }

    static let malformed: [(String, MediaProbeError.Code)] = [
        ("", .notSupported),
        ("<html>not a playlist</html>", .notSupported),
        ("#EXTM3U\n", .malformed),
        ("#EXTM3U\n#EXTINF:abc,\na.ts\n", .malformed),
        ("#EXTM3U\n#EXTINF:-1,\na.ts\n", .malformed),
        ("#EXTM3U\n#EXTINF:inf,\na.ts\n", .malformed),
        ("#EXTM3U\na.ts\n", .malformed),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:x\n#EXTINF:1,\na.ts\n", .malformed),
        ("#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:-4\n#EXTINF:1,\na.ts\n", .malformed),
        ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n", .malformed),
    ]

    @Test(arguments: malformed)
    func rejectsMalformedPlaylists(text: String, code: MediaProbeError.Code) {
        #expect(throws: MediaProbeError(code: code, context: text)) { try Self.parse(text) }
    }

    @Test func rejectsAnOversizedPlaylist() {
        let bytes = Array("#EXTM3U\n".utf8) + [UInt8](repeating: 0x23, count: HLSPlaylist.maximumSize)
        #expect(throws: MediaProbeError(code: .tooLarge, context: "")) { try HLSPlaylist.parse(bytes) }
    }

    @Test func invalidUTF8DoesNotCrash() {
        let bytes: [UInt8] = Array("#EXTM3U\n#EXTINF:".utf8) + [0xFF, 0xFE, 0x0A] + Array("a.ts\n".utf8)
        #expect(throws: MediaProbeError(code: .malformed, context: "")) { try HLSPlaylist.parse(bytes) }
    }
}
