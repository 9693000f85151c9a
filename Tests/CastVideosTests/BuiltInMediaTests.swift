import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator
@testable import castvideos

/// The built-in catalog's media: files the app makes and serves, read by the device's own
/// media reader over HTTP as the built-in device reads them.
struct BuiltInMediaTests {
    static let catalog = try! Catalog(json: Array(BuiltInCatalog.json.utf8))

    /// Every video and every caption track of the catalog has a file.
    @Test func everyVideoAndCaptionIsServed() throws {
        let files = BuiltInMedia.files(for: Self.catalog)
        let tracks = Self.catalog.items.flatMap(\.tracks).filter { $0.type == "text" }
        #expect(files.count == Self.catalog.items.count + tracks.count)
        for item in Self.catalog.items {
            let path = try #require(BuiltInMedia.path(of: item.streamURL))
            #expect(files[path]?.contentType == item.mimeType)
        }
    }

    /// The catalog names the app's server for videos and captions only; images keep the
    /// reserved host, which nothing serves.
    @Test func theCatalogNamesTheServer() throws {
        let served = try Catalog(json: Array(BuiltInCatalog.json(mediaBase: "http://127.0.0.1:4567/").utf8))
        for item in served.items {
            #expect(item.streamURL.hasPrefix("http://127.0.0.1:4567/mp4/"))
            #expect(item.posterURL?.hasPrefix(BuiltInCatalog.mediaHost + "images/") == true)
            for track in item.tracks { #expect(track.contentID.hasPrefix("http://127.0.0.1:4567/tracks/")) }
        }
        #expect(BuiltInCatalog.json(mediaBase: nil) == BuiltInCatalog.json)
    }

    /// Read by the device's media reader from the running server: each video reports the
    /// catalog's duration, a 1280×720 picture and an English audio track; each caption file
    /// is valid WebVTT with cues; a path the catalog does not name is a 404 (LOAD_FAILED).
    @Test func theDevicesReaderReadsEveryServedFile() async throws {
        // The server's 10 s request timeout would answer 408 to a reader held up by a slow run.
        let server = try BuiltInMediaServer(
            catalog: Self.catalog,
            preferredPort: nil,
            requestTimeout: TestTiming.patience
        )
        let served = try Catalog(json: Array(BuiltInCatalog.json(mediaBase: server.baseURL).utf8))
        let fetcher = MediaFetcher(timeout: TestTiming.patience)
        for item in served.items {
            let result = try await fetcher.probe(url: item.streamURL, contentType: item.mimeType)
            #expect(result.duration == item.duration, "\(item.title)")
            #expect(result.videoSize?.width == 1280 && result.videoSize?.height == 720)
            #expect(result.tracks.contains { $0.kind == .audio && $0.language == "eng" })
            #expect(!result.isLive)
            for track in item.tracks where track.type == "text" {
                let captions = try await fetcher.probeTextTrack(url: track.contentID)
                #expect(captions.cues.first?.text.contains(item.title) == true, "\(track.contentID)")
            }
        }
        await #expect(throws: MediaLoadFailure.self) {
            try await fetcher.probe(url: server.baseURL + "mp4/missing.mp4", contentType: "video/mp4")
        }
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
