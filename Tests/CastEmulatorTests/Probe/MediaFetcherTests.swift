import CastNet
import CastNetCore
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator

/// The fetcher against the project's HTTP server on loopback, serving files the test writes.
@Suite struct MediaFetcherTests {
    static let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("media-fetcher-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    static func write(_ name: String, _ bytes: [UInt8]) -> String {
        let path = directory + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    static let moovAtEnd = write("end.mp4", MP4Builder.moovAtEnd(mdatSize: 4_000_000))
    static let fastStart = write("start.mp4", MP4Builder.fastStart())
    static let noise = write("noise.bin", (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    static func routes() -> HTTPRoutes {
        var routes = HTTPRoutes()
        routes.add(.get, "/end.mp4") { _ in .ok(.file(path: moovAtEnd), contentType: "video/mp4") }
        routes.add(.get, "/start.mp4") { _ in .ok(.file(path: fastStart), contentType: "video/mp4") }
        routes.add(.get, "/noise.bin") { _ in .ok(.file(path: noise), contentType: "application/octet-stream") }
        routes.add(.get, "/noise-as-mp4") { _ in .ok(.file(path: noise), contentType: "video/mp4") }
        routes.add(.get, "/moved.mp4") { _ in
            var response = HTTPResponse.status(HTTPStatus(code: 302))
            response.headers.add(name: "Location", value: "/end.mp4")
            return response
        }
        routes.add(.get, "/loop") { _ in
            var response = HTTPResponse.status(HTTPStatus(code: 301))
            response.headers.add(name: "Location", value: "/loop")
            return response
        }
        routes.add(.get, "/master.m3u8") { _ in
            .ok(.text("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nvariant.m3u8\n"), contentType: "application/x-mpegurl")
        }
        routes.add(.get, "/variant.m3u8") { _ in
            .ok(
                .text("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n#EXTINF:2,\nb.ts\n#EXT-X-ENDLIST\n"),
                contentType: "application/x-mpegurl"
            )
        }
        routes.add(.get, "/live.m3u8") { _ in
            .ok(.text("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n"), contentType: "application/x-mpegurl")
        }
        routes.add(.get, "/broken-master.m3u8") { _ in
            .ok(.text("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nmissing.m3u8\n"), contentType: "application/x-mpegurl")
        }
        routes.add(.get, "/garbage.m3u8") { _ in .ok(.text("<html></html>"), contentType: "text/html") }
        routes.add(.get, "/vod.mpd") { _ in
            .ok(
                .text(#"<MPD type="static" mediaPresentationDuration="PT2M"><Period/></MPD>"#),
                contentType: "application/dash+xml"
            )
        }
        routes.add(.get, "/live.mpd") { _ in
            .ok(.text(#"<MPD type="dynamic"><Period start="PT0S"/></MPD>"#), contentType: "application/dash+xml")
        }
        routes.add(.get, "/empty.mpd") { _ in
            .ok(
                .text(#"<MPD type="static" mediaPresentationDuration="PT2M"></MPD>"#),
                contentType: "application/dash+xml"
            )
        }
        routes.add(.get, "/garbage.mpd") { _ in .ok(.text("{\"not\": \"xml\"}"), contentType: "application/json") }
        routes.add(.get, "/picture.png") { _ in
            .ok(
                .bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 64)),
                contentType: "image/png"
            )
        }
        routes.add(.get, "/picture.webp") { _ in
            .ok(.bytes(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)), contentType: "image/webp")
        }
        routes.add(.get, "/captions.vtt") { _ in
            .ok(.text("WEBVTT\n\n00:00.000 --> 00:02.000\nHello\n"), contentType: "text/vtt")
        }
        routes.add(.get, "/captions.srt") { _ in
            .ok(.text("1\n00:00:00,000 --> 00:00:02,000\nHello\n"), contentType: "text/plain")
        }
        routes.add(.get, "/not-a-picture.png") { _ in .ok(.text("<html></html>"), contentType: "image/png") }
        return routes
    }

    static func withServer(_ body: (String) async throws -> Void) async throws {
        var configuration = HTTPServerConfiguration()
        configuration.requestTimeout = .seconds(120)
        let server = try HTTPServer(address: .loopbackIPv4(), routes: routes(), configuration: configuration)
        defer { server.close() }
        try await body("http://127.0.0.1:\(server.localAddress.port)")
    }

    static let fetcher = MediaFetcher(timeout: TestTiming.patience)

    @Test func readsAnMP4WithMoovAtTheEnd() async throws {
        try await Self.withServer { base in
            let result = try await Self.fetcher.probe(url: base + "/end.mp4", contentType: "video/mp4")
            #expect(result == MP4ProbeTests.expected)
        }
    }

    @Test func followsRedirects() async throws {
        try await Self.withServer { base in
            let result = try await Self.fetcher.probe(url: base + "/moved.mp4", contentType: "video/mp4")
            #expect(result.duration == 8)
        }
    }

    @Test func readsAFastStartMP4() async throws {
        try await Self.withServer { base in
            let result = try await Self.fetcher.probe(url: base + "/start.mp4", contentType: nil)
            #expect(result.videoSize?.width == 320)
        }
    }

    @Test func readsHLSThroughTheFirstVariant() async throws {
        try await Self.withServer { base in
            let vod = try await Self.fetcher.probe(url: base + "/master.m3u8", contentType: "application/x-mpegurl")
            #expect(vod.duration == 4 && !vod.isLive)
            let live = try await Self.fetcher.probe(url: base + "/live.m3u8", contentType: nil)
            #expect(live.isLive && live.duration == nil)
        }
    }

    static let failures: [(String, String?, String)] = [
        ("/nothing-here.mp4", "video/mp4", "MEDIA_NETWORK"),
        ("/noise.bin", "video/mp4", "MEDIA_SRC_NOT_SUPPORTED"),
        ("/loop", "video/mp4", "MEDIA_NETWORK"),
        ("/missing.m3u8", "application/x-mpegurl", "HLS_NETWORK_MASTER_PLAYLIST"),
        ("/broken-master.m3u8", nil, "HLS_NETWORK_PLAYLIST"),
        ("/garbage.m3u8", nil, "HLS_MANIFEST_MASTER"),
        ("/missing.mpd", "application/dash+xml", "DASH_NETWORK"),
        ("/garbage.mpd", nil, "DASH_MANIFEST_UNKNOWN"),
        ("/empty.mpd", nil, "DASH_MANIFEST_NO_PERIODS"),
        ("/not-a-picture.png", "image/png", "IMAGE_ERROR"),
        ("/missing.jpg", "image/jpeg", "IMAGE_ERROR"),
    ]

    @Test(arguments: failures)
    func reportsTheReceiversErrorCode(path: String, contentType: String?, name: String) async throws {
        try await Self.withServer { base in
            do {
                let result = try await Self.fetcher.probe(url: base + path, contentType: contentType)
                Issue.record("expected \(name), got \(result)")
            } catch let error as MediaLoadFailure {
                #expect(error.detailedErrorName == name)
            }
        }
    }

    @Test func anUnreachableServerIsAMediaNetworkError() async {
        // Port 9 (discard) on loopback: nothing listens there on a test machine.
        do {
            _ = try await Self.fetcher.probe(url: "http://127.0.0.1:9/x.mp4", contentType: "video/mp4")
            Issue.record("expected a failure")
        } catch {
            #expect(error.detailedErrorName == "MEDIA_NETWORK")
        }
    }

    @Test(arguments: [
        ("bytes 0-99/1234", 1234 as Int?), ("bytes 0-99/*", nil), ("bytes 0-99", nil), ("bytes 0-1/x1", nil),
        ("bytes 0-1/9999999999999999999999", nil),
    ])
    func readsTheTotalOfAContentRange(header: String, total: Int?) {
        #expect(MediaFetcher.totalLength(header) == total)
    }

    /// A never-ending live Matroska stream: the probe reads its header and returns without
    /// waiting for an end, and the stream is the item's to follow.
    @Test func probesANeverEndingStreamFromItsHeader() async throws {
        let server = try LiveStreamServer(clusters: nil, header: LiveStreamServer.liveHeader)
        defer { server.close() }
        let result = try await MediaFetcher(timeout: TestTiming.patience).probe(
            url: server.url,
            contentType: "video/x-matroska"
        )
        #expect(result.isLive && result.duration == nil)
        #expect(result.tracks.map(\.kind) == [.video, .audio])
        #expect(result.followURL == server.url)
    }

    /// Following stops when told to, although the stream never ends.
    @Test func followingANeverEndingStreamStopsWhenTheItemDoes() async throws {
        let server = try LiveStreamServer(clusters: nil, header: LiveStreamServer.liveHeader)
        defer { server.close() }
        let wanted = Locked(true)
        let fetcher = MediaFetcher(timeout: TestTiming.patience)
        async let end = fetcher.follow(server.url) { wanted.withLock { $0 } }
        // Stop once a good part of the stream went by. Whatever happens, the follow is told to
        // stop (and, if the stream stalled, its server closed) before it is awaited, so a slow
        // run fails here instead of waiting on a stream that never ends.
        try? await server.bytesSent.wait(until: "200 kB of the stream", within: .seconds(60)) { $0 >= 200_000 }
        let reached = server.bytesSent.value >= 200_000
        wanted.withLock { $0 = false }
        if !reached { server.close() }
        let result = await end
        #expect(reached, "200 kB of the stream within the deadline")
        #expect(result == nil)
    }

    @Test func followingAFiniteStreamReportsTheMediaReceived() async throws {
        let server = try LiveStreamServer(clusters: 25, header: LiveStreamServer.liveHeader)
        defer { server.close() }
        let end = try #require(await MediaFetcher(timeout: TestTiming.patience).follow(server.url) { true })
        #expect(end.mediaSeconds == 2.44)
        #expect(end.bytes == LiveStreamServer.liveHeader.count + server.bytesSent.value)
    }

    @Test func readsDASHManifests() async throws {
        try await Self.withServer { base in
            let vod = try await Self.fetcher.probe(url: base + "/vod.mpd", contentType: nil)
            #expect(vod.duration == 120 && !vod.isLive)
            let live = try await Self.fetcher.probe(url: base + "/live.mpd", contentType: "application/dash+xml")
            #expect(live.isLive && live.duration == nil)
        }
    }

    @Test func picturesAreImagesWithoutDuration() async throws {
        try await Self.withServer { base in
            for path in ["/picture.png", "/picture.webp"] {
                let result = try await Self.fetcher.probe(
                    url: base + path,
                    contentType: path.hasSuffix("png") ? "image/png" : "image/webp"
                )
                #expect(result.isImage && result.duration == nil && !result.isLive)
            }
        }
    }

    @Test func imageSignatures() {
        #expect(MediaFetcher.imageFormat([0xFF, 0xD8, 0xFF, 0xE0]) == "jpeg")
        #expect(MediaFetcher.imageFormat(Array("GIF89a".utf8)) == "gif")
        #expect(MediaFetcher.imageFormat(Array("GIF88a".utf8)) == nil)
        #expect(MediaFetcher.imageFormat(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)) == nil)
        #expect(MediaFetcher.imageFormat([0x89, 0x50, 0x4E]) == nil)
    }
}
