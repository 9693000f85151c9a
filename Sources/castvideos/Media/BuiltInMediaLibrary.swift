import CastCore
import CastNet
import CastNetCore
import Foundation
import Synchronization

/// The files behind the built-in catalog, by the path the media server answers: pictures the
/// app draws (``CatalogArt``) and encodes (JPEG, and PNG for the live stream's), videos and
/// ad clips (made by ffmpeg into the cache when it is there, ``MediaMaker``; else files of
/// headers only, ``BuiltInMedia``), the live stream's playlist and segments, and captions.
///
/// Pictures are drawn when first asked for and kept in the cache directory, so each is made
/// once; nothing is downloaded.
final class BuiltInMediaLibrary: Sendable {
    /// A picture of the catalog: what it shows and how it is stored.
    struct PictureSpec: Sendable, Hashable {
        /// The title whose scene it is (``CatalogArt``).
        var title: String
        var width: Int
        var height: Int
        var isPNG: Bool
    }

    /// A video or ad clip ffmpeg makes: its scene, its length and its sound.
    struct VideoSpec: Sendable, Hashable {
        /// The served path, `/mp4/…`.
        var path: String
        /// The picture it moves over (a served path).
        var picturePath: String
        var seconds: Double
        /// The tone of its sound track, in hertz.
        var tone: Int
    }

    /// The version of what ffmpeg makes: a new one makes the files again.
    static let version = "v3"

    /// The live stream: its playlist path and the length of its segments.
    static let livePlaylistPath = "/hls/harbour-cam.m3u8"
    static let liveSegmentSeconds = 2
    static let liveSegmentCount = 6

    let catalog: Catalog
    /// Where made files are kept, or `nil` to keep pictures in memory only.
    let directory: URL?
    let pictures: [String: PictureSpec]
    let videos: [VideoSpec]
    /// Placeholders (videos of headers only) and captions.
    let files: [String: BuiltInMedia.File]
    private let memory = Mutex<[String: [UInt8]]>([:])

    /// - Parameters:
    ///   - catalog: the built-in catalog (with any base: only paths are used).
    ///   - directory: the cache directory, `…/castvideos/media`; `nil` keeps nothing on disk.
    init(catalog: Catalog, directory: URL?) {
        self.catalog = catalog
        self.directory = directory.map { $0.appendingPathComponent(Self.version, isDirectory: true) }
        var pictures: [String: PictureSpec] = [:]
        var videos: [VideoSpec] = []
        for (index, item) in catalog.items.enumerated() {
            for url in [item.thumbnailURL, item.posterURL].compactMap({ $0 }) {
                if let path = BuiltInMedia.path(of: url), let spec = Self.pictureSpec(path: path, title: item.title) {
                    pictures[path] = spec
                }
            }
            if !item.isLive, let path = BuiltInMedia.path(of: item.streamURL),
                let picture = item.thumbnailURL.flatMap(BuiltInMedia.path(of:))
            {
                videos.append(
                    VideoSpec(path: path, picturePath: picture, seconds: item.duration, tone: 220 + index * 55)
                )
            }
            for clip in item.breakClips {
                guard let url = clip.contentURL, let path = BuiltInMedia.path(of: url),
                    !videos.contains(where: { $0.path == path })
                else { continue }
                let poster = clip.posterURL.flatMap(BuiltInMedia.path(of:))
                if let poster, let spec = Self.pictureSpec(path: poster, title: clip.title ?? clip.id) {
                    pictures[poster] = spec
                }
                videos.append(
                    VideoSpec(
                        path: path,
                        picturePath: poster ?? "",
                        seconds: clip.duration ?? 15,
                        tone: 880
                    )
                )
            }
        }
        self.pictures = pictures
        self.videos = videos
        files = BuiltInMedia.files(for: catalog)
    }

    /// `/images/480x270/name.jpg` → 480 × 270, JPEG.
    private static func pictureSpec(path: String, title: String) -> PictureSpec? {
        let parts = path.split(separator: "/")
        guard parts.count >= 2 else { return nil }
        let size = parts[parts.count - 2].split(separator: "x").compactMap { Int($0) }
        guard size.count == 2, (1...4096).contains(size[0]), (1...4096).contains(size[1]) else { return nil }
        return PictureSpec(title: title, width: size[0], height: size[1], isPNG: path.hasSuffix(".png"))
    }

    /// Where a made file is kept.
    func cachedFile(_ path: String) -> URL? {
        directory?.appendingPathComponent(String(path.drop { $0 == "/" }))
    }

    /// Whether ffmpeg has made the file at `path`.
    func isMade(_ path: String) -> Bool {
        cachedFile(path).map { FileManager.default.fileExists(atPath: $0.path) } ?? false
    }

    /// The videos ffmpeg has not made yet.
    var missingVideos: [VideoSpec] { videos.filter { !isMade($0.path) } }

    /// Whether the live stream's segments are made.
    var isLiveStreamMade: Bool { isMade(Self.segmentPath(Self.liveSegmentCount - 1)) }

    static func segmentPath(_ index: Int) -> String { "/hls/harbour-cam-\(index).ts" }

    // MARK: Pictures

    /// The encoded picture at `path`, drawn and kept on first use; `nil` for a path that is
    /// no picture of the catalog.
    func picture(_ path: String) -> [UInt8]? {
        guard let spec = pictures[path] else { return nil }
        if let bytes = memory.withLock({ $0[path] }) { return bytes }
        if let file = cachedFile(path), let data = FileManager.default.contents(atPath: file.path), !data.isEmpty {
            return Array(data)
        }
        let rgb = CatalogArt(title: spec.title).rgb(width: spec.width, height: spec.height)
        let bytes: [UInt8]
        if spec.isPNG {
            var rgba = [UInt8](repeating: 255, count: spec.width * spec.height * 4)
            for index in 0..<(spec.width * spec.height) {
                rgba[index * 4] = rgb[index * 3]
                rgba[index * 4 + 1] = rgb[index * 3 + 1]
                rgba[index * 4 + 2] = rgb[index * 3 + 2]
            }
            bytes = PNGEncoder.encode(rgba: rgba, width: spec.width, height: spec.height)
        } else {
            bytes = JPEGEncoder(quality: 85).encode(rgb: rgb, width: spec.width, height: spec.height)
        }
        if let file = cachedFile(path) {
            Self.writeAtomically(bytes, to: file)
        } else {
            memory.withLock { $0[path] = bytes }
        }
        return bytes
    }

    /// Writes through a temporary file and a rename, so another process never reads half a
    /// file.
    static func writeAtomically(_ bytes: [UInt8], to file: URL) {
        try? FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        let temporary = file.deletingLastPathComponent()
            .appendingPathComponent(".\(file.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max))")
        do {
            try Data(bytes).write(to: temporary)
            if rename(temporary.path, file.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
        }
    }

    // MARK: Serving

    /// The answer for a GET of `path`.
    func response(for path: String, now: Date = Date()) -> HTTPResponse {
        if pictures[path] != nil, let bytes = picture(path) {
            return .ok(.bytes(bytes), contentType: path.hasSuffix(".png") ? "image/png" : "image/jpeg")
        }
        if path == Self.livePlaylistPath {
            let playlist = LivePlaylist(
                segmentSeconds: Self.liveSegmentSeconds,
                segmentCount: Self.liveSegmentCount,
                segmentName: { "harbour-cam-\($0).ts" }
            )
            return .ok(.text(playlist.text(at: now)), contentType: "application/x-mpegurl")
        }
        if path.hasPrefix("/hls/"), path.hasSuffix(".ts") {
            if let file = cachedFile(path), FileManager.default.fileExists(atPath: file.path) {
                return .ok(.file(path: file.path), contentType: "video/mp2t")
            }
            return .status(.notFound)
        }
        if videos.contains(where: { $0.path == path }), let file = cachedFile(path),
            FileManager.default.fileExists(atPath: file.path)
        {
            return .ok(.file(path: file.path), contentType: "video/mp4")
        }
        if let file = files[path] {
            return .ok(.bytes(file.bytes), contentType: file.contentType)
        }
        return .status(.notFound)
    }

    /// Every path the server answers (the live segments once made).
    var paths: [String] {
        Array(Set(pictures.keys).union(files.keys).union(videos.map(\.path)).union([Self.livePlaylistPath]))
            + (0..<Self.liveSegmentCount).map(Self.segmentPath)
    }
}
