/// Reads the duration of an MPEG audio file (MP3, and MPEG-1/2 layers I and II): the frame
/// count of a Xing/Info or VBRI header in the first frame, else an estimate from the file's
/// size and the first frame's bitrate (constant bitrate). A leading ID3v2 tag is skipped.
enum MP3Probe {
    /// One MPEG audio frame header.
    struct FrameHeader: Equatable {
        var isMPEG1: Bool
        var layer: Int
        var bitrate: Int
        var sampleRate: Int
        var isMono: Bool
        var length: Int
        var samplesPerFrame: Int
    }

    /// How far after the ID3 tag the first frame is looked for.
    static let maximumSyncSearch = 4096

    /// The length of an ID3v2 tag starting `bytes` (header and footer included), or `nil`.
    /// - Throws: `malformed` for a tag size that is not syncsafe.
    static func id3Length(_ bytes: ArraySlice<UInt8>) throws(MediaProbeError) -> Int? {
        let base = bytes.startIndex
        guard bytes.count >= 10, bytes[base] == 0x49, bytes[base + 1] == 0x44, bytes[base + 2] == 0x33 else {
            return nil
        }
        let sizeBytes = bytes[(base + 6)..<(base + 10)]
        guard sizeBytes.allSatisfy({ $0 < 0x80 }) else {
            throw MediaProbeError(code: .malformed, context: "ID3 tag size")
        }
        let size = sizeBytes.reduce(0) { $0 << 7 | Int($1) }
        let footer = bytes[base + 5] & 0x10 != 0 ? 10 : 0
        return 10 + size + footer
    }

    /// The MPEG audio frame header at `index`, or `nil` when the bytes there are not one.
    static func frameHeader(_ bytes: ArraySlice<UInt8>, at index: Int) -> FrameHeader? {
        guard index >= bytes.startIndex, index + 4 <= bytes.endIndex else { return nil }
        let b1 = bytes[index + 1]
        let b2 = bytes[index + 2]
        guard bytes[index] == 0xFF, b1 & 0xE0 == 0xE0 else { return nil }
        let version = Int(b1 >> 3 & 3)
        let layerBits = Int(b1 >> 1 & 3)
        let bitrateIndex = Int(b2 >> 4)
        let rateIndex = Int(b2 >> 2 & 3)
        guard version != 1, layerBits != 0, bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let layer = 4 - layerBits
        let isMPEG1 = version == 3
        let kbps: [Int]
        switch (isMPEG1, layer) {
        case (true, 1): kbps = [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
        case (true, 2): kbps = [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
        case (true, _): kbps = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        case (false, 1): kbps = [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
        case (false, _): kbps = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        }
        let bitrate = kbps[bitrateIndex] * 1000
        let baseRate = [44_100, 48_000, 32_000][rateIndex]
        let sampleRate = version == 3 ? baseRate : version == 2 ? baseRate / 2 : baseRate / 4
        let padding = Int(b2 >> 1 & 1)
        let samples = layer == 1 ? 384 : (layer == 3 && !isMPEG1) ? 576 : 1152
        let length =
            layer == 1 ? (12 * bitrate / sampleRate + padding) * 4 : samples / 8 * bitrate / sampleRate + padding
        return FrameHeader(
            isMPEG1: isMPEG1,
            layer: layer,
            bitrate: bitrate,
            sampleRate: sampleRate,
            isMono: bytes[index + 3] >> 6 == 3,
            length: length,
            samplesPerFrame: samples
        )
    }

    /// Whether `bytes` start an MPEG audio file: an ID3v2 tag, or a frame followed by another.
    static func looksLikeMP3(_ bytes: [UInt8]) -> Bool {
        if bytes.count >= 3, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33 { return true }
        guard let first = frameHeader(bytes[...], at: 0) else { return false }
        return first.length >= bytes.count || frameHeader(bytes[...], at: first.length) != nil
    }

    /// Reads the duration.
    /// - Parameters:
    ///   - head: the first bytes of the file.
    ///   - fileSize: the file's length; `nil` for a stream (live: an internet radio).
    ///   - read: reads `count` bytes at `offset` (used when an ID3 tag outgrows `head`).
    /// - Throws: ``MediaProbeError``, or what `read` throws.
    static func probe(
        head: [UInt8],
        fileSize: Int?,
        read: (_ offset: Int, _ count: Int) async throws -> [UInt8]
    ) async throws -> MediaProbeResult {
        var start = 0
        // Tags may follow one another (some encoders write two).
        for _ in 0..<4 {
            let tagHeader = start + 10 <= head.count ? Array(head[start..<(start + 10)]) : try await read(start, 10)
            guard let tag = try id3Length(tagHeader[...]) else { break }
            start += tag
            if let fileSize, start >= fileSize { throw MediaProbeError(code: .truncated, context: "ID3 tag") }
        }
        if start + maximumSyncSearch + 4 <= head.count || fileSize.map({ head.count >= $0 }) == true {
            return try probeFrames(head, origin: 0, start: start, fileSize: fileSize)
        }
        let bytes = try await read(start, 16 << 10)
        return try probeFrames(bytes, origin: start, start: start, fileSize: fileSize)
    }

    /// Reads the first frame at or after `start` in `bytes`, which start at `origin` in the
    /// file.
    static func probeFrames(
        _ bytes: [UInt8],
        origin: Int,
        start: Int,
        fileSize: Int?
    ) throws(MediaProbeError) -> MediaProbeResult {
        var index = start - origin
        let limit = min(bytes.count - 4, index + maximumSyncSearch)
        var header: FrameHeader?
        while index <= limit {
            if let found = frameHeader(bytes[...], at: index) {
                header = found
                break
            }
            index += 1
        }
        guard let header else { throw MediaProbeError(code: .notSupported, context: "no MPEG audio frame") }
        let frameStart = index
        let track = [MediaProbeResult.Track(kind: .audio, number: 1)]
        // Xing/Info after the side information; VBRI 32 bytes after the header.
        let sideInfo = header.isMPEG1 ? (header.isMono ? 17 : 32) : (header.isMono ? 9 : 17)
        let xing = frameStart + 4 + sideInfo
        if header.layer == 3, xing + 12 <= bytes.count {
            let tag = String(decoding: bytes[xing..<(xing + 4)], as: UTF8.self)
            if tag == "Xing" || tag == "Info" {
                let flags = MP4Probe.readUInt32(bytes, at: xing + 4)
                if flags & 1 != 0 {
                    let frames = MP4Probe.readUInt32(bytes, at: xing + 8)
                    return MediaProbeResult(duration: duration(frames: frames, header), tracks: track)
                }
            }
        }
        let vbri = frameStart + 36
        if vbri + 18 <= bytes.count, bytes[vbri..<(vbri + 4)].elementsEqual("VBRI".utf8) {
            let frames = MP4Probe.readUInt32(bytes, at: vbri + 14)
            return MediaProbeResult(duration: duration(frames: frames, header), tracks: track)
        }
        guard let fileSize else {
            // A stream without a length (an internet radio): live.
            return MediaProbeResult(isLive: true, tracks: track)
        }
        let audio = fileSize - (origin + frameStart)
        guard audio > 0 else { throw MediaProbeError(code: .truncated, context: "no audio after the headers") }
        return MediaProbeResult(duration: Double(audio) * 8 / Double(header.bitrate), tracks: track)
    }

    private static func duration(frames: UInt32, _ header: FrameHeader) -> Double {
        Double(frames) * Double(header.samplesPerFrame) / Double(header.sampleRate)
    }
}
