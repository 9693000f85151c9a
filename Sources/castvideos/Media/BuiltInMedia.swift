import CastCore
import Foundation

/// The files behind the built-in catalog that need no tool: for each video and ad clip an MP4
/// whose `moov` gives the catalog's duration, a 1280×720 video track and an English audio
/// track, and for each text track a WebVTT file.
///
/// These MP4s hold no frames (their `mdat` is a few zero bytes): the device reads container
/// headers, as a receiver's player does before it plays. They stand in for the videos
/// ``MediaMaker`` makes with ffmpeg until those exist, or when ffmpeg is not installed.
enum BuiltInMedia {
    /// One file: its media type and bytes.
    struct File: Sendable, Hashable {
        var contentType: String
        var bytes: [UInt8]
    }

    /// The files for `catalog`, by URL path (`/mp4/harbour-lights.mp4`).
    static func files(for catalog: Catalog) -> [String: File] {
        var files: [String: File] = [:]
        for item in catalog.items {
            if !item.isLive, let path = path(of: item.streamURL) {
                files[path] = File(contentType: item.mimeType, bytes: mp4(seconds: item.duration))
            }
            for clip in item.breakClips {
                guard let url = clip.contentURL, let path = path(of: url) else { continue }
                files[path] = File(
                    contentType: clip.contentType ?? "video/mp4",
                    bytes: mp4(seconds: clip.duration ?? 15)
                )
            }
            for track in item.tracks where track.type == "text" {
                guard let path = path(of: track.contentID) else { continue }
                files[path] = File(contentType: "text/vtt", bytes: Array(webVTT(for: item, track: track).utf8))
            }
        }
        return files
    }

    /// The path of an absolute URL, without scheme, host or query.
    static func path(of url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        return String(rest[slash...].prefix { $0 != "?" && $0 != "#" })
    }

    // MARK: MP4

    /// A fast-start MP4 (`ftyp`, `moov`, `mdat`) lasting `seconds` (whole milliseconds).
    static func mp4(seconds: Double) -> [UInt8] {
        let milliseconds = UInt32(clamping: Int((max(0, seconds.isFinite ? seconds : 0) * 1000).rounded()))
        let fileType = box("ftyp", Array("isom".utf8) + u32(512) + Array("isomiso2avc1mp41".utf8))
        let movie = box(
            "moov",
            movieHeader(milliseconds: milliseconds)
                + track(id: 1, handler: "vide", width: 1280, height: 720, language: "und", milliseconds: milliseconds)
                + track(id: 2, handler: "soun", width: 0, height: 0, language: "eng", milliseconds: milliseconds)
        )
        return fileType + movie + box("mdat", [UInt8](repeating: 0, count: 64))
    }

    private static func u16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    private static func u32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        u32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    /// Version 0: creation and modification times, timescale (1 ms), duration, then rate,
    /// volume, reserved bytes, the identity matrix, pre-defined fields and the next track id.
    private static func movieHeader(milliseconds: UInt32) -> [UInt8] {
        var payload: [UInt8] = [0, 0, 0, 0] + u32(0) + u32(0) + u32(1000) + u32(milliseconds)
        payload += u32(0x0001_0000) + u16(0x0100) + [UInt8](repeating: 0, count: 10)
        payload += identityMatrix + [UInt8](repeating: 0, count: 24) + u32(3)
        return box("mvhd", payload)
    }

    private static let identityMatrix: [UInt8] =
        u32(0x0001_0000) + u32(0) + u32(0) + u32(0) + u32(0x0001_0000) + u32(0) + u32(0) + u32(0) + u32(0x4000_0000)

    private static func track(
        id: UInt32,
        handler: String,
        width: UInt32,
        height: UInt32,
        language: String,
        milliseconds: UInt32
    ) -> [UInt8] {
        // Track enabled and in the movie (flags 3); width and height in 16.16 fixed point.
        var header: [UInt8] = [0, 0, 0, 3] + u32(0) + u32(0) + u32(id) + u32(0) + u32(milliseconds)
        header += [UInt8](repeating: 0, count: 8) + u16(0) + u16(0) + u16(handler == "soun" ? 0x0100 : 0) + u16(0)
        header += identityMatrix + u32(width << 16) + u32(height << 16)
        // ISO 639-2 language, three letters of five bits each.
        let letters = language.utf8.map { UInt16($0) &- 0x60 }
        let packed = letters.count == 3 ? (letters[0] << 10 | letters[1] << 5 | letters[2]) & 0x7FFF : 0x55C4
        let mediaHeader = box(
            "mdhd",
            [0, 0, 0, 0] + u32(0) + u32(0) + u32(1000) + u32(milliseconds) + u16(packed) + u16(0)
        )
        let handlerBox = box(
            "hdlr",
            [0, 0, 0, 0] + u32(0) + Array(handler.utf8) + [UInt8](repeating: 0, count: 12) + [0]
        )
        return box("trak", box("tkhd", header) + box("mdia", mediaHeader + handlerBox))
    }

    // MARK: WebVTT

    /// Three cues: the title, the subtitle and the studio, a few seconds each.
    static func webVTT(for item: MediaItem, track: MediaItem.Track) -> String {
        let lines = [item.title, item.subtitle, item.studio].filter { !$0.isEmpty }
        var text = "WEBVTT\n\n"
        for (index, line) in lines.enumerated() {
            let start = 1 + index * 4
            text += "\(index + 1)\n00:00:\(twoDigits(start)).000 --> 00:00:\(twoDigits(start + 3)).500\n"
            text += (track.language?.hasPrefix("fr") == true ? "[fr] " : "") + line + "\n\n"
        }
        return text
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
