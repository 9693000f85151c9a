/// Reads the duration of an Ogg Vorbis or Ogg Opus file: the codec's identification header
/// in the first page, then the granule position of the last page, found by a ranged read of
/// the file's tail (Opus: minus its pre-skip, at 48 kHz).
enum OggProbe {
    /// How much of the file's end is read to find the last page.
    static let tailSize = 64 << 10

    /// One Ogg page header.
    struct Page: Equatable {
        var granule: Int64
        var serial: UInt32
        var headerLength: Int
        var bodyLength: Int
    }

    /// The codec of the first logical stream.
    struct Codec: Equatable {
        var name: String
        var sampleRate: Int
        var preSkip: Int
    }

    static func looksLikeOgg(_ bytes: [UInt8]) -> Bool { bytes.starts(with: Array("OggS".utf8)) }

    /// The page header at `index`, or `nil` when the bytes end inside it.
    /// - Throws: `malformed` for a page with an unknown version.
    static func page(_ bytes: [UInt8], at index: Int) throws(MediaProbeError) -> Page? {
        guard index + 27 <= bytes.count else { return nil }
        guard bytes[index..<(index + 4)].elementsEqual("OggS".utf8) else {
            throw MediaProbeError(code: .malformed, context: "no page at \(index)")
        }
        guard bytes[index + 4] == 0 else { throw MediaProbeError(code: .malformed, context: "Ogg version") }
        let granule = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[index + 6 + $1]) << (8 * UInt64($1)) }
        let serial = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[index + 14 + $1]) << (8 * UInt32($1)) }
        let segments = Int(bytes[index + 26])
        guard index + 27 + segments <= bytes.count else { return nil }
        let body = bytes[(index + 27)..<(index + 27 + segments)].reduce(0) { $0 + Int($1) }
        return Page(granule: Int64(bitPattern: granule), serial: serial, headerLength: 27 + segments, bodyLength: body)
    }

    /// Reads the first page's identification header.
    /// - Throws: `notSupported` for a codec other than Vorbis and Opus.
    static func codec(_ head: [UInt8]) throws(MediaProbeError) -> (Codec, serial: UInt32) {
        guard looksLikeOgg(head) else { throw MediaProbeError(code: .notSupported, context: "no OggS page") }
        guard let first = try page(head, at: 0) else { throw MediaProbeError(code: .truncated, context: "first page") }
        let start = first.headerLength
        guard start + first.bodyLength <= head.count else {
            throw MediaProbeError(code: .truncated, context: "first page body")
        }
        let body = Array(head[start..<(start + first.bodyLength)])
        if body.count >= 16, body[0] == 1, body[1..<7].elementsEqual("vorbis".utf8) {
            let rate = Int(WAVProbe.littleUInt32(body, at: 12))
            guard rate > 0 else { throw MediaProbeError(code: .malformed, context: "Vorbis sample rate 0") }
            return (Codec(name: "vorbis", sampleRate: rate, preSkip: 0), first.serial)
        }
        if body.count >= 19, body[0..<8].elementsEqual("OpusHead".utf8) {
            let preSkip = Int(body[10]) | Int(body[11]) << 8
            // Opus granule positions always count 48 kHz samples.
            return (Codec(name: "opus", sampleRate: 48_000, preSkip: preSkip), first.serial)
        }
        throw MediaProbeError(code: .notSupported, context: "Ogg stream that is neither Vorbis nor Opus")
    }

    /// The granule position of the last complete page of stream `serial` in `tail`.
    static func lastGranule(in tail: [UInt8], serial: UInt32) -> Int64? {
        var best: Int64?
        var index = 0
        let marker = Array("OggS".utf8)
        while index + 27 <= tail.count {
            guard tail[index..<(index + 4)].elementsEqual(marker),
                let found = try? page(tail, at: index),
                index + found.headerLength + found.bodyLength <= tail.count
            else {
                index += 1
                continue
            }
            if found.serial == serial, found.granule >= 0 { best = found.granule }
            index += found.headerLength + found.bodyLength
        }
        return best
    }

    /// Reads the codec from `head` and the duration from the file's last page.
    /// - Parameters:
    ///   - fileSize: the file's length; `nil` for a stream (live).
    ///   - read: reads `count` bytes at `offset`.
    /// - Throws: ``MediaProbeError``, or what `read` throws.
    static func probe(
        head: [UInt8],
        fileSize: Int?,
        read: (_ offset: Int, _ count: Int) async throws -> [UInt8]
    ) async throws -> MediaProbeResult {
        let (codec, serial) = try codec(head)
        let track = [MediaProbeResult.Track(kind: .audio, number: 1, codec: codec.name)]
        guard let fileSize else { return MediaProbeResult(isLive: true, tracks: track) }
        let tail: [UInt8]
        if fileSize <= head.count {
            tail = Array(head.prefix(fileSize))
        } else {
            let offset = max(0, fileSize - tailSize)
            tail = try await read(offset, fileSize - offset)
        }
        guard let granule = lastGranule(in: tail, serial: serial) else {
            throw MediaProbeError(code: .truncated, context: "no complete last page")
        }
        let samples = max(0, granule - Int64(codec.preSkip))
        return MediaProbeResult(duration: Double(samples) / Double(codec.sampleRate), tracks: track)
    }
}
