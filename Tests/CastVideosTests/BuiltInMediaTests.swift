import CastCore
import CastNet
import CastNetCore
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSenderUI
@testable import castvideos

/// The built-in catalog's media: files the app makes and serves, read by the device's own
/// media reader over HTTP as the built-in device reads them.
struct BuiltInMediaTests {
    static let catalog = try! Catalog(json: Array(BuiltInCatalog.json.utf8))

    /// Every video, ad clip and caption track of the catalog has a file that needs no tool.
    @Test func everyVideoAdClipAndCaptionHasAFile() throws {
        let files = BuiltInMedia.files(for: Self.catalog)
        let tracks = Self.catalog.items.flatMap(\.tracks).filter { $0.type == "text" }
        let videos = Self.catalog.items.filter { !$0.isLive }
        let clips = Set(Self.catalog.items.flatMap(\.breakClips).compactMap(\.contentURL))
        #expect(!clips.isEmpty && Self.catalog.items.contains(where: \.isLive))
        #expect(files.count == videos.count + tracks.count + clips.count)
        for item in videos {
            let path = try #require(BuiltInMedia.path(of: item.streamURL))
            #expect(files[path]?.contentType == item.mimeType)
        }
    }

    /// The catalog names the app's server for all its media, pictures included.
    @Test func theCatalogNamesTheServer() throws {
        let served = try Catalog(json: Array(BuiltInCatalog.json(mediaBase: "http://127.0.0.1:4567/").utf8))
        for item in served.items {
            #expect(
                item.streamURL.hasPrefix("http://127.0.0.1:4567/mp4/")
                    || item.streamURL.hasPrefix("http://127.0.0.1:4567/hls/")
            )
            #expect(item.posterURL?.hasPrefix("http://127.0.0.1:4567/images/780x1200/") == true)
            #expect(item.thumbnailURL?.hasPrefix("http://127.0.0.1:4567/images/480x270/") == true)
            for track in item.tracks { #expect(track.contentID.hasPrefix("http://127.0.0.1:4567/tracks/")) }
            for clip in item.breakClips {
                #expect(clip.contentURL?.hasPrefix("http://127.0.0.1:4567/mp4/ads/") == true)
            }
        }
        #expect(BuiltInCatalog.json(mediaBase: nil) == BuiltInCatalog.json)
        #expect(!BuiltInCatalog.json(mediaBase: "http://127.0.0.1:4567/").contains(BuiltInCatalog.mediaHost))
    }

    /// The catalog keeps the codelab's shape and adds ads and a live stream: sections with
    /// studios and caption tracks, two videos with ad breaks (a skippable pre-roll, a
    /// mid-roll of two clips), one live HLS stream.
    @Test func theCatalogHasSectionsAdsAndALiveStream() throws {
        let items = Self.catalog.items
        #expect(Set(items.map(\.category)) == ["Shorts", "Animation", "Science", "Live"])
        #expect(items.allSatisfy { !$0.studio.isEmpty })
        #expect(items.filter { !$0.tracks.isEmpty }.count >= 3)
        let salt = try #require(items.first { $0.title == "Salt and Smoke" })
        #expect(salt.breaks.map(\.position) == [0])
        #expect(salt.breakClips.first?.whenSkippable == 12)
        let bridges = try #require(items.first { $0.title == "How Bridges Hold" })
        #expect(bridges.breaks.first?.breakClipIDs?.count == 2)
        let live = try #require(items.first { $0.isLive })
        #expect(live.mediaInformation.streamType == .live && live.mediaInformation.duration == nil)
        #expect(live.mimeType == "application/x-mpegurl")
        let information = salt.mediaInformation
        #expect(information.breaks?.first?.breakClipIDs == ["tidewater-promo"])
        #expect(information.breakClips?.first?.title == "Tidewater Films presents")
    }

    /// Every picture the server answers for decodes with the widgets' decoders (JPEG, and PNG
    /// for the live stream's thumbnail), at the size its path names, and is kept in the
    /// cache directory: the second run reads it instead of drawing it.
    @Test func everyPictureIsDrawnEncodedAndKept() throws {
        let directory = try TmuxDriver.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = BuiltInMediaLibrary(catalog: Self.catalog, directory: directory)
        #expect(library.pictures.count == Self.catalog.items.count * 2 + 2, "thumbnails, posters, two ad posters")
        for (path, spec) in library.pictures where spec.width <= 480 {
            let bytes = try #require(library.picture(path))
            #expect(spec.isPNG ? PNGDecoder.isPNG(bytes) : JPEGDecoder.isJPEG(bytes), "\(path)")
            let image = try ImageDecoder().decode(bytes)
            #expect(image.width == spec.width && image.height == spec.height, "\(path)")
            #expect(library.isMade(path))
        }
        let thumbnail = "/images/480x270/harbour-lights.jpg"
        let kept = try #require(library.picture(thumbnail))
        let again = BuiltInMediaLibrary(catalog: Self.catalog, directory: directory).picture(thumbnail)
        #expect(again == kept)
        #expect(library.response(for: "/images/480x270/nothing.jpg").status.code == 404)
    }

    /// The app's JPEG encoder writes files ffmpeg decodes as this decoder does, and close to
    /// the picture drawn.
    @Test func theJPEGEncoderWritesFilesFFmpegReads() async throws {
        let art = CatalogArt(title: "Harbour Lights")
        let rgb = art.rgb(width: 97, height: 61)
        let jpeg = JPEGEncoder(quality: 90).encode(rgb: rgb, width: 97, height: 61)
        let image = try JPEGDecoder().decode(jpeg)
        var error = 0
        for index in 0..<(97 * 61) {
            for channel in 0..<3 {
                error += abs(Int(image.pixels[index * 4 + channel]) - Int(rgb[index * 3 + channel]))
            }
        }
        #expect(Double(error) / Double(97 * 61 * 3) < 4, "mean error against the picture drawn")
        guard let ffmpeg = RepositoryPaths.executableOnPath("ffmpeg") else {
            print("BuiltInMediaTests: ffmpeg is not installed; its decode of the encoder's JPEG is not compared")
            return
        }
        let directory = try TmuxDriver.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("art.jpg")
        try Data(jpeg).write(to: file)
        let raw = directory.appendingPathComponent("art.rgb")
        let result = try await runProgram(
            ffmpeg,
            ["-v", "error", "-i", file.path, "-f", "rawvideo", "-pix_fmt", "gray", raw.path],
            deadline: .seconds(60)
        )
        try #require(result.status == 0, "ffmpeg: \(result.output)")
        // The luma plane: equal within the rounding of two IDCTs.
        let luma = Array(try Data(contentsOf: raw))
        let planes = try JPEGDecoder().componentPlanes(jpeg)
        #expect(luma.count == 97 * 61)
        var worst = 0
        for y in 0..<61 {
            for x in 0..<97 {
                worst = max(worst, abs(Int(luma[y * 97 + x]) - Int(planes[0].samples[y * planes[0].width + x])))
            }
        }
        #expect(worst <= 2)
    }

    /// The live stream's playlist: a window of three segments that moves with the clock,
    /// without an end, a discontinuity where the cycle of segments starts again.
    @Test func theLivePlaylistMoves() {
        let playlist = LivePlaylist(segmentSeconds: 2, segmentCount: 6, segmentName: { "s\($0).ts" })
        let first = playlist.text(at: Date(timeIntervalSince1970: 1_000))
        #expect(first.contains("#EXT-X-MEDIA-SEQUENCE:500\n"))
        #expect(first.contains("s2.ts\ns3.ts") == false && first.contains("s2.ts") && first.contains("s4.ts"))
        #expect(!first.contains("#EXT-X-ENDLIST"))
        let later = playlist.text(at: Date(timeIntervalSince1970: 1_006))
        #expect(later.contains("#EXT-X-MEDIA-SEQUENCE:503\n"))
        #expect(later.contains("s5.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:2.000,\ns0.ts"))
    }

    /// With ffmpeg, the maker makes every video of a catalog once: an H.264/AAC file as long
    /// as the catalog says that the device's reader reads, served in place of the
    /// placeholder; the live stream's segments too. A second run has nothing to do.
    @Test func ffmpegMakesTheVideosOnce() async throws {
        guard RepositoryPaths.executableOnPath("ffmpeg") != nil else {
            print("BuiltInMediaTests: ffmpeg is not installed; the videos it makes are not tested")
            return
        }
        let catalog = try Catalog(
            json: Array(
                #"""
                {"categories": [{"name": "Tests", "mp4": "http://media.invalid/mp4/", "images": "http://media.invalid/images/",
                  "hls": "http://media.invalid/hls/",
                  "videos": [
                    {"title": "Short", "studio": "Test", "duration": 21.5, "image-480x270": "480x270/short.jpg",
                     "sources": [{"type": "mp4", "url": "short.mp4"}],
                     "breakClips": [{"id": "ad", "title": "An ad", "url": "ads/ad.mp4", "duration": 4, "poster": "480x270/ad.jpg"}],
                     "breaks": [{"id": "pre", "position": 0, "breakClipIds": ["ad"]}]},
                    {"title": "Harbour Cam", "studio": "Test", "live": true, "image-480x270": "480x270/harbour-cam.png",
                     "sources": [{"type": "hls", "url": "harbour-cam.m3u8"}]}
                  ]}]}
                """#.utf8
            )
        )
        let directory = try TmuxDriver.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = BuiltInMediaLibrary(catalog: catalog, directory: directory)
        let maker = MediaMaker(library: library)
        #expect(!maker.isComplete)
        #expect(await maker.make() == .made(count: 3))
        #expect(maker.isComplete)
        #expect(await maker.make() == .ready)
        let server = try BuiltInMediaServer(
            catalog: catalog,
            cacheDirectory: directory,
            preferredPort: nil,
            requestTimeout: TestTiming.patience
        )
        let fetcher = MediaFetcher(timeout: TestTiming.patience)
        let base = server.baseURL
        let video = try await fetcher.probe(url: base + "mp4/short.mp4", contentType: "video/mp4")
        #expect(abs((video.duration ?? 0) - 21.5) < 0.2, "\(String(describing: video.duration))")
        #expect(video.videoSize?.width == 480 && video.videoSize?.height == 270)
        let ad = try await fetcher.probe(url: base + "mp4/ads/ad.mp4", contentType: "video/mp4")
        #expect(abs((ad.duration ?? 0) - 4) < 0.2)
        let live = try await fetcher.probe(url: base + "hls/harbour-cam.m3u8", contentType: "application/x-mpegurl")
        #expect(live.isLive)
        let segment = try await HTTPClient().get(base + "hls/harbour-cam-0.ts")
        #expect(segment.status.code == 200 && segment.body.first == 0x47, "an MPEG-TS segment")
        await server.stop()
    }

    /// Asked for a port that is taken, the server starts on another one.
    @Test func aTakenPreferredPortFallsBackToAFreeOne() async throws {
        let first = try BuiltInMediaServer(catalog: Self.catalog, preferredPort: nil)
        let second = try BuiltInMediaServer(catalog: Self.catalog, preferredPort: first.port)
        #expect(second.port != first.port && second.port > 0)
        await first.stop()
        await second.stop()
    }

    /// The built-in device keeps the media server's port for the next run and reads media
    /// (fetch mode) when the app serves it, and simulates when it does not.
    @Test func theBuiltInDeviceKeepsTheMediaPortAndReadsMedia() async throws {
        let directory = try TmuxDriver.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let served = try await BuiltInVirtualDevice.start(
            logPath: nil,
            stateDirectory: directory,
            addresses: ["127.1.0.80", "127.1.0.81"],
            mediaPort: 4567
        )
        #expect(served.device.configuration.mediaMode == .fetch)
        await served.saveState()
        #expect(BuiltInVirtualDevice.savedMediaPort(in: directory) == 4567)
        await served.stop()
        let simulated = try await BuiltInVirtualDevice.start(
            logPath: nil,
            stateDirectory: directory,
            addresses: ["127.1.0.80", "127.1.0.81"]
        )
        #expect(simulated.device.configuration.mediaMode == .simulate)
        await simulated.stop()
    }
}
