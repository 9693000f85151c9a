/// Reads the duration of a RIFF WAVE file from its `fmt ` and `data` chunk headers.
enum WAVProbe {
    /// Whether `bytes` start a RIFF WAVE file.
    static func looksLikeWAV(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 12 && bytes[0..<4].elementsEqual("RIFF".utf8) && bytes[8..<12].elementsEqual("WAVE".utf8)
    }

    /// Reads the duration from the first bytes of the file (the chunk headers before the
    /// samples; the `data` chunk itself need not be present).
    /// - Throws: ``MediaProbeError`` when a chunk is malformed or missing.
    static func probe(head: [UInt8]) throws(MediaProbeError) -> MediaProbeResult {
        guard looksLikeWAV(head) else { throw MediaProbeError(code: .notSupported, context: "not RIFF WAVE") }
        var index = 12
        var byteRate: UInt32?
        while index + 8 <= head.count {
            let size = Int(littleUInt32(head, at: index + 4))
            let id = String(decoding: head[index..<(index + 4)], as: UTF8.self)
            if id == "fmt " {
                guard size >= 16, index + 8 + 16 <= head.count else {
                    throw MediaProbeError(code: .truncated, context: "fmt chunk")
                }
                byteRate = littleUInt32(head, at: index + 8 + 8)
            } else if id == "data" {
                guard let byteRate else { throw MediaProbeError(code: .malformed, context: "data before fmt") }
                guard byteRate > 0 else { throw MediaProbeError(code: .malformed, context: "byte rate 0") }
                return MediaProbeResult(
                    duration: Double(size) / Double(byteRate),
                    isLive: false,
                    tracks: [.init(kind: .audio, number: 1)]
                )
            }
            // Chunks are padded to an even size.
            let (next, overflow) = (index + 8).addingReportingOverflow(size + (size & 1))
            guard !overflow else { throw MediaProbeError(code: .malformed, context: "chunk size") }
            index = next
        }
        throw MediaProbeError(code: .truncated, context: "no data chunk in the first bytes")
    }

    static func littleUInt32(_ bytes: [UInt8], at index: Int) -> UInt32 {
        UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16
            | UInt32(bytes[index + 3]) << 24
    }
}
