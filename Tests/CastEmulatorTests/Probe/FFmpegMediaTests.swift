import CastNet
import CastNetCore
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator

/// The probes on files a real encoder wrote: Debian's ffmpeg (installed by `scripts/test.sh`)
/// generates them at test time from its built-in test sources.
@Suite(.serialized, .requires(.ffmpeg)) struct FFmpegMediaTests {
    static let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ffmpeg-media-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    struct FFmpegError: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs ffmpeg; the wait sleeps between polls, so encoding for seconds blocks no thread
    /// of the shared pool.
    static func ffmpeg(_ arguments: [String]) async throws {
        let path = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let path else {
            throw FFmpegError(description: "ffmpeg is not installed (scripts/test.sh installs it)")
        }
        let run = try await runProgram(
            path,
            ["-nostdin", "-loglevel", "error", "-y"] + arguments,
            deadline: .seconds(120)
        )
        guard run.status == 0 else { throw FFmpegError(description: "ffmpeg failed: \(run.output)") }
    }

    /// A 3 s 320x240 H.264 + AAC clip, `moov` at the end (ffmpeg's default) or at the start.
    static func clip(_ name: String, faststart: Bool) async throws -> String {
        let output = directory + "/" + name
        try await ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc=duration=3:size=320x240:rate=25", "-f", "lavfi", "-i",
                "sine=frequency=440:duration=3", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest",
            ] + (faststart ? ["-movflags", "+faststart"] : []) + [output]
        )
        return output
    }

    static func serve(
        _ files: [String: (path: String, type: String)],
        _ body: (String) async throws -> Void
    )
        async throws
    {
        var routes = HTTPRoutes()
        for (route, file) in files {
            routes.add(.get, route) { _ in .ok(.file(path: file.path), contentType: file.type) }
        }
        var configuration = HTTPServerConfiguration()
        configuration.requestTimeout = .seconds(120)
        let server = try HTTPServer(address: .loopbackIPv4(), routes: routes, configuration: configuration)
        defer { server.close() }
        try await body("http://127.0.0.1:\(server.localAddress.port)")
    }

    @Test(arguments: [false, true])
    func readsAnEncodedMP4(faststart: Bool) async throws {
        let path = try await Self.clip(faststart ? "start.mp4" : "end.mp4", faststart: faststart)
        try await Self.serve(["/clip.mp4": (path, "video/mp4")]) { base in
            let result = try await MediaFetcher(timeout: .seconds(60)).probe(url: base + "/clip.mp4", contentType: nil)
            let duration = try #require(result.duration)
            #expect(abs(duration - 3) < 0.1)
            #expect(result.tracks.map(\.kind) == [.video, .audio])
            #expect(result.videoSize?.width == 320 && result.videoSize?.height == 240)
        }
    }

    @Test func readsAnEncodedHLSPlaylist() async throws {
        let clip = try await Self.clip("hls-source.mp4", faststart: true)
        let playlist = Self.directory + "/vod.m3u8"
        try await Self.ffmpeg([
            "-i", clip, "-c", "copy", "-f", "hls", "-hls_time", "1", "-hls_list_size", "0", playlist,
        ])
        try await Self.serve(["/vod.m3u8": (playlist, "application/vnd.apple.mpegurl")]) { base in
            let result = try await MediaFetcher(timeout: .seconds(60)).probe(url: base + "/vod.m3u8", contentType: nil)
            let duration = try #require(result.duration)
            #expect(abs(duration - 3) < 0.2)
            #expect(!result.isLive)
        }
    }

    static let testSources = [
        "-f", "lavfi", "-i", "testsrc=duration=2:size=320x240:rate=25", "-f", "lavfi", "-i",
        "sine=frequency=440:duration=2",
    ]

    static func probeServed(_ path: String, type: String) async throws -> MediaProbeResult {
        var result: MediaProbeResult?
        try await serve(["/media": (path, type)]) { base in
            result = try await MediaFetcher(timeout: .seconds(60)).probe(url: base + "/media", contentType: type)
        }
        return try #require(result)
    }

    @Test func readsAnEncodedWebM() async throws {
        let path = Self.directory + "/clip.webm"
        try await Self.ffmpeg(
            Self.testSources + [
                "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "200k", "-c:a", "libopus",
                "-shortest", path,
            ]
        )
        let result = try await Self.probeServed(path, type: "video/webm")
        let duration = try #require(result.duration)
        #expect(abs(duration - 2) < 0.1)
        #expect(!result.isLive)
        #expect(result.tracks.map(\.kind) == [.video, .audio])
        #expect(result.tracks.map(\.codec) == ["V_VP9", "A_OPUS"])
        #expect(result.videoSize?.width == 320 && result.videoSize?.height == 240)
    }

    @Test func readsAnEncodedMatroskaFile() async throws {
        let path = Self.directory + "/clip.mkv"
        try await Self.ffmpeg(
            Self.testSources + [
                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-metadata:s:a:0",
                "language=ger", "-shortest", path,
            ]
        )
        let result = try await Self.probeServed(path, type: "video/x-matroska")
        let duration = try #require(result.duration)
        #expect(abs(duration - 2) < 0.1)
        #expect(result.tracks.map(\.codec) == ["V_MPEG4/ISO/AVC", "A_AAC"])
        #expect(result.tracks.last?.language == "ger")
    }

    /// ffmpeg's live mode writes what VLC streams: an unknown-size Segment without Duration.
    @Test func anEncodedLiveMatroskaStreamIsLive() async throws {
        let path = Self.directory + "/live.mkv"
        try await Self.ffmpeg(
            Self.testSources + [
                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", "-f",
                "matroska", "-live", "1", path,
            ]
        )
        let result = try await Self.probeServed(path, type: "video/x-matroska")
        #expect(result.isLive && result.duration == nil)
        #expect(result.tracks.map(\.kind) == [.video, .audio])
        // Served with a length: a file, not a stream to follow.
        #expect(result.followURL == nil)
        var scanner = MatroskaStreamScanner()
        scanner.feed(try Array(Data(contentsOf: URL(fileURLWithPath: path))))
        let seconds = try #require(scanner.seconds)
        #expect(!scanner.isBroken)
        #expect(seconds > 1.8 && seconds < 2.05)
    }

    /// Audio files of a 2 s sine, each format as Debian's ffmpeg writes it.
    static let audioFormats: [(name: String, type: String, arguments: [String], tolerance: Double)] = [
        ("vbr.mp3", "audio/mpeg", ["-c:a", "libmp3lame", "-q:a", "4"], 0.06),
        (
            "cbr.mp3", "audio/mpeg", ["-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0", "-id3v2_version", "3"],
            0.1
        ),
        ("clip.aac", "audio/aac", ["-c:a", "aac", "-b:a", "96k", "-f", "adts"], 0.15),
        ("clip.flac", "audio/flac", ["-c:a", "flac"], 0.01),
        ("clip.ogg", "audio/ogg", ["-c:a", "libvorbis"], 0.01),
        ("clip.opus", "audio/ogg", ["-c:a", "libopus"], 0.01),
    ]

    @Test(arguments: audioFormats.map(\.name))
    func readsAnEncodedAudioFile(name: String) async throws {
        let format = try #require(Self.audioFormats.first { $0.name == name })
        let path = Self.directory + "/" + name
        try await Self.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=2"] + format.arguments + [path])
        let result = try await Self.probeServed(path, type: format.type)
        let duration = try #require(result.duration)
        #expect(abs(duration - 2) < format.tolerance, "\(name): \(duration) s")
        #expect(result.tracks.map(\.kind) == [.audio])
        #expect(!result.isLive)
    }
}
