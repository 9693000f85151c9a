/// Reads the duration of a FLAC file from its `STREAMINFO` block (total samples / sample
/// rate).
enum FLACProbe {
    /// Whether `bytes` start a FLAC stream.
    static func looksLikeFLAC(_ bytes: [UInt8]) -> Bool { bytes.starts(with: Array("fLaC".utf8)) }

    /// Reads `STREAMINFO`, which the format puts first.
    /// - Throws: ``MediaProbeError`` for a missing or broken `STREAMINFO`.
    static func probe(head: [UInt8]) throws(MediaProbeError) -> MediaProbeResult {
        guard looksLikeFLAC(head) else { throw MediaProbeError(code: .notSupported, context: "no fLaC marker") }
        guard head.count >= 8 else { throw MediaProbeError(code: .truncated, context: "metadata block header") }
        let type = head[4] & 0x7F
        let length = Int(head[5]) << 16 | Int(head[6]) << 8 | Int(head[7])
        guard type == 0 else { throw MediaProbeError(code: .malformed, context: "first block is not STREAMINFO") }
        guard length >= 34 else { throw MediaProbeError(code: .malformed, context: "STREAMINFO of \(length) bytes") }
        guard head.count >= 8 + 34 else { throw MediaProbeError(code: .truncated, context: "STREAMINFO") }
        let info = Array(head[8..<(8 + 34)])
        let sampleRate = Int(info[10]) << 12 | Int(info[11]) << 4 | Int(info[12]) >> 4
        guard sampleRate > 0 else { throw MediaProbeError(code: .malformed, context: "sample rate 0") }
        let samples = UInt64(info[13] & 0x0F) << 32 | UInt64(MP4Probe.readUInt32(info, at: 14))
        let track = [MediaProbeResult.Track(kind: .audio, number: 1)]
        // Zero total samples means "unknown" (a stream).
        guard samples > 0 else { return MediaProbeResult(tracks: track) }
        return MediaProbeResult(duration: Double(samples) / Double(sampleRate), tracks: track)
    }
}
