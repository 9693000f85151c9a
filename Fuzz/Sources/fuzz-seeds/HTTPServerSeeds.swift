/// Programs for `fuzz-http-server`: the hostile servers of the third hostile-peer round and a
/// well-formed response, as the target reads them (a first byte below 64 picks a well-formed
/// response, else a hostile script; see `Fuzz/Sources/fuzz-http-server/main.swift`).
enum HTTPServerSeeds {
    /// Opcodes of the hostile script.
    enum Op: UInt8 {
        case status = 0
        case rawLine = 1
        case interim = 2
        case header = 3
        case endOfHead = 4
        case body = 5
        case chunk = 6
        case trailers = 7
        case endlessTrailer = 8
        case stall = 9
        case close = 10
        case manyHeaders = 11
        case chunkedHead = 12
    }

    /// A hostile program for client `kind` (0 probe, 1 text track, 2 follow, 3 subtitles, 4 GET).
    static func hostile(kind: UInt8, contentType: UInt8 = 1, _ ops: [[UInt8]]) -> [UInt8] {
        // 64…255 is "not well formed" (below(4) != 0); the kind is read modulo 5.
        [65, kind, contentType] + ops.flatMap { $0 }
    }

    static func seeds() -> SeedSet {
        var set = SeedSet(target: "http-server")
        // Well formed: 3 × 97 + 10 body bytes, chunked with short extensions and a trailer.
        set.add("well-formed-chunked", [0, 0, 3, 10, 1, 0] + (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        set.add("well-formed-length", [0, 0, 2, 5, 2, 1] + (0..<256).map { UInt8(truncatingIfNeeded: $0) })
        // Endless 100 Continue answers (5,000 of them, then again).
        let interims = [[Op.interim.rawValue, 251], [Op.interim.rawValue, 251], [Op.interim.rawValue, 251]]
        set.add("continues-probe", hostile(kind: 0, interims))
        set.add("continues-subtitles", hostile(kind: 3, interims))
        // A chunked head, then one-byte chunks with 1,000-byte extensions.
        let extensions = [[Op.chunkedHead.rawValue]] + Array(repeating: [Op.chunk.rawValue, 1, 0, 3], count: 20)
        set.add("chunk-extensions", hostile(kind: 0, extensions))
        // A live stream's head and body, then a trailer line without end.
        set.add(
            "endless-trailer-follow",
            hostile(kind: 2, [[Op.chunkedHead.rawValue], [Op.chunk.rawValue, 5, 0, 0], [Op.endlessTrailer.rawValue]])
        )
        // A head, then nothing: the client's timeout ends the read.
        set.add(
            "stall-after-head",
            hostile(kind: 1, [[Op.status.rawValue, 0, 1], [Op.endOfHead.rawValue], [Op.stall.rawValue]])
        )
        // A Content-Length that lies, then a close.
        set.add(
            "lying-length",
            hostile(
                kind: 0,
                [
                    [Op.status.rawValue, 0, 1], [Op.header.rawValue, 0, 3], [Op.endOfHead.rawValue],
                    [Op.body.rawValue, 0, 2], [Op.close.rawValue],
                ]
            )
        )
        // Header fields without end.
        set.add("many-headers", hostile(kind: 4, [[Op.manyHeaders.rawValue, 249], [Op.manyHeaders.rawValue, 249]]))
        return set
    }
}
