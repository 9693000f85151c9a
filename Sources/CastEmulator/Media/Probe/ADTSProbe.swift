/// Estimates the duration of raw AAC in ADTS frames: frames counted through the first bytes
/// (1,024 samples each), the rest of the file estimated from their average length.
enum ADTSProbe {
    /// The AAC sampling frequencies by ADTS index.
    static let sampleRates = [
        96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000, 7_350,
    ]

    /// One ADTS frame header: its length and sampling frequency.
    struct FrameHeader: Equatable {
        var length: Int
        var sampleRate: Int
        var blocks: Int
    }

    /// The ADTS header at `index`, or `nil` when the bytes there are not one.
    static func frameHeader(_ bytes: [UInt8], at index: Int) -> FrameHeader? {
        guard index >= 0, index + 7 <= bytes.count, bytes[index] == 0xFF, bytes[index + 1] & 0xF6 == 0xF0 else {
            return nil
        }
        let rateIndex = Int(bytes[index + 2] >> 2 & 0x0F)
        guard rateIndex < sampleRates.count else { return nil }
        let length = Int(bytes[index + 3] & 3) << 11 | Int(bytes[index + 4]) << 3 | Int(bytes[index + 5] >> 5)
        let headerLength = bytes[index + 1] & 1 == 1 ? 7 : 9
        guard length >= headerLength else { return nil }
        return FrameHeader(length: length, sampleRate: sampleRates[rateIndex], blocks: Int(bytes[index + 6] & 3) + 1)
    }

    /// Whether `bytes` (after any ID3 tag) start with ADTS frames: a header followed by another.
    static func looksLikeADTS(_ bytes: [UInt8], at start: Int = 0) -> Bool {
        guard let first = frameHeader(bytes, at: start) else { return false }
        return start + first.length >= bytes.count || frameHeader(bytes, at: start + first.length) != nil
    }

    /// Estimates the duration from `head` (frames from `start`, after any ID3 tag).
    /// - Parameter fileSize: the file's length; `nil` for a stream (live).
    /// - Throws: ``MediaProbeError`` when no frame starts at `start` or a frame is broken.
    static func probe(head: [UInt8], start: Int, fileSize: Int?) throws(MediaProbeError) -> MediaProbeResult {
        guard let first = frameHeader(head, at: start) else {
            throw MediaProbeError(code: .notSupported, context: "no ADTS frame")
        }
        let track = [MediaProbeResult.Track(kind: .audio, number: 1)]
        guard let fileSize else { return MediaProbeResult(isLive: true, tracks: track) }
        var index = start
        var frames = 0
        var blocks = 0
        let end = min(head.count, fileSize)
        while index < end {
            guard let header = frameHeader(head, at: index) else {
                // A frame cut by the end of the bytes read is fine; anything else is not ADTS.
                if end - index < 7 || (index + 7 <= end && head[index] == 0xFF) { break }
                throw MediaProbeError(code: .malformed, context: "ADTS frame \(frames)")
            }
            guard header.sampleRate == first.sampleRate else {
                throw MediaProbeError(code: .malformed, context: "sampling frequency changes at frame \(frames)")
            }
            guard index + header.length <= end else { break }
            frames += 1
            blocks += header.blocks
            index += header.length
        }
        guard frames > 0 else { throw MediaProbeError(code: .truncated, context: "no whole ADTS frame") }
        let counted = index - start
        let total = fileSize - start
        let estimatedBlocks = total > counted ? Double(blocks) * Double(total) / Double(counted) : Double(blocks)
        return MediaProbeResult(duration: estimatedBlocks * 1024 / Double(first.sampleRate), tracks: track)
    }
}
