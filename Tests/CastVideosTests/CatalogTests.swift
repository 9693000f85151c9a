import CastCore
import Foundation
import Testing

@testable import castvideos

struct CatalogTests {
    static func decode(_ text: String) throws(CatalogError) -> Catalog {
        try Catalog(json: Array(text.utf8))
    }

    @Test func builtInCatalogDecodes() throws {
        let catalog = try Catalog(json: Array(BuiltInCatalog.json.utf8))
        #expect(catalog.items.count == 11)
        #expect(Set(catalog.items.map(\.id)).count == catalog.items.count)
        for item in catalog.items where !item.isLive {
            #expect(item.streamURL.hasPrefix("https://media.castvideos.invalid/mp4/"))
            #expect(item.duration > 60)
            #expect(!item.description.isEmpty)
            #expect(item.thumbnailURL?.hasPrefix("https://media.castvideos.invalid/images/480x270/") == true)
            #expect(item.posterURL?.hasPrefix("https://media.castvideos.invalid/images/780x1200/") == true)
        }
        let first = try #require(catalog.items.first)
        #expect(first.title == "Harbour Lights")
        #expect(first.tracks.map(\.id) == [1, 2])
        #expect(first.tracks.first?.contentID == "https://media.castvideos.invalid/tracks/harbour-lights-en.vtt")
    }

    @Test func mediaInformationCarriesMetadataTracksAndDuration() throws {
        let item = try #require(try Catalog(json: Array(BuiltInCatalog.json.utf8)).items.first)
        let media = item.mediaInformation
        #expect(media.contentID == item.streamURL)
        #expect(media.contentType == "video/mp4")
        #expect(media.streamType == .buffered)
        #expect(media.duration == 612)
        #expect(media.metadata?.title == "Harbour Lights")
        #expect(media.metadata?.studio == "Tidewater Films")
        #expect(media.metadata?.images.count == 2)
        #expect(media.tracks?.first?.type == .text)
        #expect(media.tracks?.first?.subtype == .captions)
        #expect(media.tracks?.first?.language == "en-US")
    }

    @Test func relativeAndAbsoluteURLsAreResolved() throws {
        let catalog = try Self.decode(
            """
            {"categories": [{"name": "C", "mp4": "http://host/base", "images": "http://img/", "tracks": "http://t/",
              "videos": [
                {"title": "A", "sources": [{"type": "mp4", "url": "/a.mp4"}], "image-480x270": "a.jpg",
                 "tracks": [{"id": 3, "contentId": "a.vtt"}]},
                {"title": "B", "sources": [{"type": "hls", "url": "b.m3u8"}, {"type": "mp4", "mime": "video/webm", "url": "https://cdn/b.mp4"}]},
                {"title": "HLS only", "sources": [{"type": "hls", "url": "c.m3u8"}]},
                {"title": "DASH only", "sources": [{"type": "dash", "url": "d.mpd"}]}
              ]}]}
            """
        )
        #expect(catalog.items.map(\.title) == ["A", "B", "HLS only"])
        #expect(catalog.items[2].streamURL == "c.m3u8" && catalog.items[2].mimeType == "application/x-mpegurl")
        #expect(catalog.items[0].streamURL == "http://host/base/a.mp4")
        #expect(catalog.items[0].thumbnailURL == "http://img/a.jpg")
        #expect(catalog.items[0].tracks.first?.contentID == "http://t/a.vtt")
        #expect(catalog.items[0].tracks.first?.id == 3)
        #expect(catalog.items[0].description == "")
        #expect(catalog.items[1].streamURL == "https://cdn/b.mp4")
        #expect(catalog.items[1].mimeType == "video/webm")
    }

    struct Malformed: Sendable, CustomStringConvertible {
        var name: String
        var json: String
        var code: Int
        var location: String
        var description: String { name }
    }

    static let malformed: [Malformed] = [
        Malformed(name: "empty text", json: "", code: 2, location: "byte 0"),
        Malformed(name: "truncated", json: #"{"categories": ["#, code: 2, location: ""),
        Malformed(name: "not an object", json: "[]", code: 4, location: "$"),
        Malformed(name: "no categories", json: "{}", code: 3, location: "categories"),
        Malformed(name: "categories not array", json: #"{"categories": 3}"#, code: 4, location: "categories"),
        Malformed(name: "category not object", json: #"{"categories": ["x"]}"#, code: 4, location: "categories[0]"),
        Malformed(
            name: "no videos",
            json: #"{"categories": [{"name": "x"}]}"#,
            code: 3,
            location: "categories[0].videos"
        ),
        Malformed(
            name: "title missing",
            json: #"{"categories": [{"videos": [{"sources": []}]}]}"#,
            code: 3,
            location: "categories[0].videos[0].title"
        ),
        Malformed(
            name: "title wrong type",
            json: #"{"categories": [{"videos": [{"title": 7, "sources": []}]}]}"#,
            code: 4,
            location: "categories[0].videos[0].title"
        ),
        Malformed(
            name: "negative duration",
            json: #"{"categories": [{"videos": [{"title": "a", "duration": -1, "sources": []}]}]}"#,
            code: 5,
            location: "categories[0].videos[0].duration"
        ),
        Malformed(
            name: "source url missing",
            json: #"{"categories": [{"videos": [{"title": "a", "sources": [{"type": "mp4"}]}]}]}"#,
            code: 3,
            location: "categories[0].videos[0].sources[0].url"
        ),
        Malformed(
            name: "track id not a number",
            json:
                #"{"categories": [{"videos": [{"title": "a", "sources": [{"type": "mp4", "url": "u"}], "tracks": [{"id": "x", "contentId": "c"}]}]}]}"#,
            code: 5,
            location: "categories[0].videos[0].tracks[0].id"
        ),
        Malformed(
            name: "no playable video",
            json: #"{"categories": [{"videos": [{"title": "a", "sources": [{"type": "dash", "url": "u"}]}]}]}"#,
            code: 6,
            location: "categories"
        ),
        Malformed(
            name: "live not a boolean",
            json:
                #"{"categories": [{"videos": [{"title": "a", "live": "yes", "sources": [{"type": "mp4", "url": "u"}]}]}]}"#,
            code: 4,
            location: "categories[0].videos[0].live"
        ),
        Malformed(
            name: "break clip without url",
            json:
                #"{"categories": [{"videos": [{"title": "a", "sources": [{"type": "mp4", "url": "u"}], "breakClips": [{"id": "c"}]}]}]}"#,
            code: 3,
            location: "categories[0].videos[0].breakClips[0].url"
        ),
        Malformed(
            name: "break clip skippable after an hour",
            json:
                #"{"categories": [{"videos": [{"title": "a", "sources": [{"type": "mp4", "url": "u"}], "breakClips": [{"id": "c", "url": "c.mp4", "whenSkippable": 1e300}]}]}]}"#,
            code: 5,
            location: "categories[0].videos[0].breakClips[0].whenSkippable"
        ),
        Malformed(
            name: "break naming no clip",
            json:
                #"{"categories": [{"videos": [{"title": "a", "sources": [{"type": "mp4", "url": "u"}], "breakClips": [{"id": "c", "url": "c.mp4"}], "breaks": [{"id": "b", "position": 0, "breakClipIds": ["d"]}]}]}]}"#,
            code: 5,
            location: "categories[0].videos[0].breaks[0].breakClipIds[0]"
        ),
        Malformed(
            name: "break after the end",
            json:
                #"{"categories": [{"videos": [{"title": "a", "duration": 60, "sources": [{"type": "mp4", "url": "u"}], "breakClips": [{"id": "c", "url": "c.mp4"}], "breaks": [{"id": "b", "position": 61, "breakClipIds": ["c"]}]}]}]}"#,
            code: 5,
            location: "categories[0].videos[0].breaks[0].position"
        ),
    ]

    @Test(arguments: malformed)
    func malformedCatalogsFailWithTypedErrors(_ sample: Malformed) {
        do {
            _ = try Self.decode(sample.json)
            Issue.record("\(sample.name) decoded")
        } catch {
            #expect(error.rawValue == sample.code, "\(error)")
            if !sample.location.isEmpty {
                #expect(error.location == sample.location, "\(error)")
            }
            #expect(!error.description.isEmpty)
        }
    }

    @Test func invalidJSONReportsTheByteOffset() {
        #expect(throws: CatalogError.self) { try Self.decode(#"{"categories": [ } "#) }
        do {
            _ = try Self.decode(#"{"categories": [ } "#)
        } catch {
            #expect(error.description.contains("byte 17"), "\(error)")
        }
    }

    @Test func oversizedCatalogIsRefusedBeforeParsing() {
        let big = [UInt8](repeating: UInt8(ascii: " "), count: Catalog.maximumSize + 1)
        do {
            _ = try Catalog(json: big)
            Issue.record("decoded")
        } catch {
            #expect(error.rawValue == 7)
        }
    }

    @Test func deeplyNestedInputIsRefused() {
        let nested = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: CatalogError.self) { try Self.decode(nested) }
    }

    @Test func sourcesLoadFilesAndReportMissingOnes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("c.json")
        try Data(BuiltInCatalog.json.utf8).write(to: file)
        #expect(try await CatalogSource(argument: file.path).load().items.count == 11)
        #expect(try await CatalogSource(argument: "file://" + file.path).load().items.count == 11)
        do {
            _ = try await CatalogSource(argument: directory.appendingPathComponent("missing.json").path).load()
            Issue.record("loaded a missing file")
        } catch {
            #expect(error.rawValue == 1)
            #expect(error.description.contains("missing.json"))
        }
        do {
            _ = try await CatalogSource.file(directory.path).load()
            Issue.record("loaded a directory")
        } catch {
            #expect(error.rawValue == 1)
        }
    }

    @Test func catalogArgumentsAreClassified() {
        #expect(
            CatalogSource(argument: "https://example.invalid/c.json")
                == .url(URL(string: "https://example.invalid/c.json")!)
        )
        #expect(
            CatalogSource(argument: "HTTP://example.invalid/c.json")
                == .url(URL(string: "HTTP://example.invalid/c.json")!)
        )
        #expect(CatalogSource(argument: "file:///tmp/c.json") == .file("/tmp/c.json"))
        #expect(CatalogSource(argument: "relative/c.json") == .file("relative/c.json"))
    }
}
