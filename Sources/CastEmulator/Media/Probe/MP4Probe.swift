/// Reads the duration and tracks of an MP4, M4A or MOV file from its `moov` box.
///
/// The file is never read whole: ``locate(header:at:fileSize:)`` walks the top-level
/// boxes one header at a time (so a `moov` at the end of the file costs a few ranged reads)
/// and ``parseMovie(_:)`` reads the `moov` box alone. Both work on bytes only; the device's
/// fetcher performs the reads.
enum MP4Probe {
    /// The largest `moov` box the device reads.
    static let maximumMovieSize = 16 << 20
    /// The most tracks a movie may have, as for Matroska (``MatroskaProbe/maximumTracks``);
    /// more is `MEDIA_DECODE`. Real files have a handful.
    static let maximumTracks = 128
    /// The most top-level boxes walked before giving up.
    static let maximumTopLevelBoxes = 64
    /// How many bytes a box header needs at most (size, type and a 64-bit size).
    static let headerReadSize = 16

    /// The next step of the walk over the top-level boxes.
    enum Step: Sendable, Equatable {
        /// Read `count` bytes at `offset` (the next box header) and call
        /// ``locate(header:at:fileSize:)`` again.
        case read(offset: Int, count: Int)
        /// The `moov` box spans `size` bytes from `offset`.
        case movie(offset: Int, size: Int)
    }

    /// Whether `bytes` (the start of a file) look like an ISO base media file.
    static func looksLikeMP4(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 8 else { return false }
        let type = fourCC(bytes, at: 4)
        return ["ftyp", "moov", "mdat", "free", "skip", "wide", "pnot", "styp"].contains(type)
    }

    /// Reads the box header in `header` (bytes of the file starting at `offset`).
    /// - Parameters:
    ///   - header: at least the header of one box, or the bytes up to the end of the file.
    ///   - offset: where `header` starts in the file.
    ///   - fileSize: the file's length when known.
    /// - Returns: where the `moov` box is, or the next header to read.
    /// - Throws: ``MediaProbeError`` when the file ends without a `moov` or a box is malformed.
    static func locate(header: [UInt8], at offset: Int, fileSize: Int?) throws(MediaProbeError) -> Step {
        guard header.count >= 8 else {
            throw MediaProbeError(code: .noMovie, context: "no moov box before the end of the file")
        }
        var size = Int(readUInt32(header, at: 0))
        let type = fourCC(header, at: 4)
        var headerSize = 8
        if size == 1 {
            guard header.count >= 16 else {
                throw MediaProbeError(code: .truncated, context: "64-bit size of \(type) box")
            }
            let large = readUInt64(header, at: 8)
            guard large <= UInt64(Int.max / 2) else {
                throw MediaProbeError(code: .malformed, context: "size of \(type) box")
            }
            size = Int(large)
            headerSize = 16
        } else if size == 0 {
            guard let fileSize else {
                throw MediaProbeError(code: .noMovie, context: "box \(type) runs to the end of an unsized file")
            }
            size = fileSize - offset
        }
        guard size >= headerSize else {
            throw MediaProbeError(code: .malformed, context: "size \(size) of \(type) box")
        }
        if let fileSize, offset + size > fileSize {
            throw MediaProbeError(code: .truncated, context: "\(type) box runs past the end of the file")
        }
        if type == "moov" {
            guard size <= maximumMovieSize else {
                throw MediaProbeError(code: .tooLarge, context: "moov box of \(size) bytes")
            }
            return .movie(offset: offset, size: size)
        }
        let next = offset + size
        if let fileSize, next >= fileSize {
            throw MediaProbeError(code: .noMovie, context: "no moov box before the end of the file")
        }
        return .read(offset: next, count: headerReadSize)
    }

    /// Reads duration and tracks from a whole `moov` box (header included).
    /// - Throws: ``MediaProbeError`` for a box that is truncated or breaks the format.
    static func parseMovie(_ movie: [UInt8]) throws(MediaProbeError) -> MediaProbeResult {
        let boxes = try children(of: movie[...], context: "file")
        guard let moov = boxes.first(where: { $0.type == "moov" }) else {
            throw MediaProbeError(code: .noMovie, context: "bytes hold no moov box")
        }
        let movieChildren = try children(of: moov.payload, context: "moov")
        guard let mvhd = movieChildren.first(where: { $0.type == "mvhd" }) else {
            throw MediaProbeError(code: .malformed, context: "moov without mvhd")
        }
        let movieTime = try timescaleAndDuration(mvhd.payload, box: "mvhd")
        let trackCount = movieChildren.count { $0.type == "trak" }
        guard trackCount <= maximumTracks else {
            throw MediaProbeError(code: .tooLarge, context: "\(trackCount) tracks, more than \(maximumTracks)")
        }
        var result = MediaProbeResult()
        result.duration = movieTime.duration
        for trak in movieChildren where trak.type == "trak" {
            if let track = try parseTrack(trak.payload) { result.tracks.append(track) }
        }
        if result.duration == nil || result.duration == 0 {
            // Fragmented files leave mvhd's duration at zero; take the longest track instead.
            var longest: Double?
            for trak in movieChildren where trak.type == "trak" {
                if let duration = try trackDuration(trak.payload) { longest = max(longest ?? 0, duration) }
            }
            result.duration = longest
        }
        return result
    }

    // MARK: Boxes

    struct Box {
        var type: String
        var payload: ArraySlice<UInt8>
    }

    static func children(of bytes: ArraySlice<UInt8>, context: String) throws(MediaProbeError) -> [Box] {
        var boxes: [Box] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard bytes.endIndex - index >= 8 else {
                throw MediaProbeError(code: .truncated, context: "box header in \(context)")
            }
            var size = Int(readUInt32(bytes, at: index))
            let type = fourCC(bytes, at: index + 4)
            var headerSize = 8
            if size == 1 {
                guard bytes.endIndex - index >= 16 else {
                    throw MediaProbeError(code: .truncated, context: "64-bit size of \(type) in \(context)")
                }
                let large = readUInt64(bytes, at: index + 8)
                guard large <= UInt64(bytes.endIndex - index) else {
                    throw MediaProbeError(code: .malformed, context: "size of \(type) in \(context)")
                }
                size = Int(large)
                headerSize = 16
            } else if size == 0 {
                size = bytes.endIndex - index
            }
            guard size >= headerSize else {
                throw MediaProbeError(code: .malformed, context: "size \(size) of \(type) in \(context)")
            }
            guard size <= bytes.endIndex - index else {
                throw MediaProbeError(code: .truncated, context: "\(type) box in \(context)")
            }
            boxes.append(Box(type: type, payload: bytes[(index + headerSize)..<(index + size)]))
            index += size
        }
        return boxes
    }

    /// Timescale and duration of an `mvhd` or `mdhd` payload, the duration in seconds.
    static func timescaleAndDuration(
        _ payload: ArraySlice<UInt8>,
        box: String
    ) throws(MediaProbeError) -> (timescale: UInt32, duration: Double?) {
        guard let version = payload.first else {
            throw MediaProbeError(code: .truncated, context: box)
        }
        let base = payload.startIndex
        let timescale: UInt32
        let units: UInt64
        switch version {
        case 0:
            guard payload.count >= 20 else { throw MediaProbeError(code: .truncated, context: box) }
            timescale = readUInt32(payload, at: base + 12)
            let value = readUInt32(payload, at: base + 16)
            units = value == .max ? .max : UInt64(value)
        case 1:
            guard payload.count >= 32 else { throw MediaProbeError(code: .truncated, context: box) }
            timescale = readUInt32(payload, at: base + 20)
            units = readUInt64(payload, at: base + 24)
        default:
            throw MediaProbeError(code: .malformed, context: "\(box) version \(version)")
        }
        guard timescale > 0 else { throw MediaProbeError(code: .malformed, context: "\(box) timescale 0") }
        // All ones means "unknown".
        guard units != .max else { return (timescale, nil) }
        return (timescale, Double(units) / Double(timescale))
    }

    static func parseTrack(_ payload: ArraySlice<UInt8>) throws(MediaProbeError) -> MediaProbeResult.Track? {
        let boxes = try children(of: payload, context: "trak")
        guard let tkhd = boxes.first(where: { $0.type == "tkhd" }) else {
            throw MediaProbeError(code: .malformed, context: "trak without tkhd")
        }
        guard let mdia = boxes.first(where: { $0.type == "mdia" }) else {
            throw MediaProbeError(code: .malformed, context: "trak without mdia")
        }
        let header = tkhd.payload
        guard let version = header.first else { throw MediaProbeError(code: .truncated, context: "tkhd") }
        let base = header.startIndex
        let idOffset: Int
        let sizeOffset: Int
        switch version {
        case 0:
            idOffset = 12
            sizeOffset = 76
        case 1:
            idOffset = 20
            sizeOffset = 88
        default:
            throw MediaProbeError(code: .malformed, context: "tkhd version \(version)")
        }
        guard header.count >= sizeOffset + 8 else { throw MediaProbeError(code: .truncated, context: "tkhd") }
        let number = Int(readUInt32(header, at: base + idOffset))
        let width = Int(readUInt32(header, at: base + sizeOffset) >> 16)
        let height = Int(readUInt32(header, at: base + sizeOffset + 4) >> 16)

        let media = try children(of: mdia.payload, context: "mdia")
        guard let hdlr = media.first(where: { $0.type == "hdlr" }) else {
            throw MediaProbeError(code: .malformed, context: "mdia without hdlr")
        }
        guard hdlr.payload.count >= 12 else { throw MediaProbeError(code: .truncated, context: "hdlr") }
        let handler = fourCC(hdlr.payload, at: hdlr.payload.startIndex + 8)
        var language: String?
        if let mdhd = media.first(where: { $0.type == "mdhd" }) {
            language = packedLanguage(mdhd.payload)
        }
        switch handler {
        case "vide":
            return .init(kind: .video, number: number, width: width, height: height, language: language)
        case "soun":
            return .init(kind: .audio, number: number, language: language)
        case "text", "sbtl", "subt":
            return .init(kind: .text, number: number, language: language)
        default:
            return nil
        }
    }

    static func trackDuration(_ payload: ArraySlice<UInt8>) throws(MediaProbeError) -> Double? {
        let boxes = try children(of: payload, context: "trak")
        guard let mdia = boxes.first(where: { $0.type == "mdia" }) else { return nil }
        let media = try children(of: mdia.payload, context: "mdia")
        guard let mdhd = media.first(where: { $0.type == "mdhd" }) else { return nil }
        return try timescaleAndDuration(mdhd.payload, box: "mdhd").duration
    }

    /// The ISO 639-2 code packed in three 5-bit letters after an `mdhd`'s times.
    static func packedLanguage(_ payload: ArraySlice<UInt8>) -> String? {
        guard let version = payload.first else { return nil }
        let offset = payload.startIndex + (version == 1 ? 32 : 20)
        guard offset + 2 <= payload.endIndex else { return nil }
        let packed = UInt16(payload[offset]) << 8 | UInt16(payload[offset + 1])
        let letters = [(packed >> 10) & 0x1F, (packed >> 5) & 0x1F, packed & 0x1F]
        guard letters.allSatisfy({ (1...26).contains($0) }) else { return nil }
        let code = String(decoding: letters.map { UInt8($0) + 0x60 }, as: UTF8.self)
        return code == "und" ? nil : code
    }

    // MARK: Bytes

    static func readUInt32<C: RandomAccessCollection<UInt8>>(_ bytes: C, at index: C.Index) -> UInt32
    where C.Index == Int {
        UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8
            | UInt32(bytes[index + 3])
    }

    static func readUInt64<C: RandomAccessCollection<UInt8>>(_ bytes: C, at index: C.Index) -> UInt64
    where C.Index == Int {
        UInt64(readUInt32(bytes, at: index)) << 32 | UInt64(readUInt32(bytes, at: index + 4))
    }

    static func fourCC<C: RandomAccessCollection<UInt8>>(_ bytes: C, at index: C.Index) -> String
    where C.Index == Int {
        let code = (0..<4).map { bytes[index + $0] }
        guard code.allSatisfy({ (0x20...0x7E).contains($0) }) else { return "????" }
        return String(decoding: code, as: UTF8.self)
    }
}

extension MP4Probe {
    /// Probes a file through ranged reads: the first `head` bytes already read, then box
    /// headers and the `moov` box read with `read(offset, count)`.
    /// - Parameters:
    ///   - head: the first bytes of the file.
    ///   - fileSize: the file's length when known.
    ///   - read: reads `count` bytes at `offset` (fewer at the end of the file).
    /// - Throws: ``MediaProbeError``, or what `read` throws.
    static func probe(
        head: [UInt8],
        fileSize: Int?,
        read: (_ offset: Int, _ count: Int) async throws -> [UInt8]
    ) async throws -> MediaProbeResult {
        var offset = 0
        var header = head
        for _ in 0..<maximumTopLevelBoxes {
            switch try locate(header: header, at: offset, fileSize: fileSize) {
            case .movie(let start, let size):
                let end = start + size
                let movie: [UInt8]
                if end <= head.count {
                    movie = Array(head[start..<end])
                } else {
                    movie = try await read(start, size)
                    guard movie.count == size else {
                        throw MediaProbeError(code: .truncated, context: "moov box")
                    }
                }
                return try parseMovie(movie)
            case .read(let next, let count):
                offset = next
                if next + count <= head.count {
                    header = Array(head[next..<(next + count)])
                } else {
                    header = try await read(next, count)
                }
            }
        }
        throw MediaProbeError(code: .noMovie, context: "more than \(maximumTopLevelBoxes) top-level boxes")
    }
}
