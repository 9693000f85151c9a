/// Follows a Matroska stream as it arrives, keeping only the latest block timestamp: how many
/// seconds of media a player has received from a live stream (VLC's, for example), whatever
/// the size of the chunks it comes in. Block payloads are skipped, never stored.
struct MatroskaStreamScanner: Sendable {
    private enum Level: Sendable, Equatable {
        case top
        case segment
        case info
        case cluster
        case blockGroup
    }

    private enum Mode: Sendable, Equatable {
        /// Collecting an element header in `pending`.
        case header
        /// Collecting the first `count` bytes of an element's data, `rest` bytes follow.
        case value(id: UInt32, count: Int, rest: Int)
    }

    /// The largest element header (a 4-byte ID and an 8-byte size).
    private static let maximumHeaderSize = 12

    private var levels: [(level: Level, end: Int?)] = [(.top, nil)]
    private var mode = Mode.header
    private var pending: [UInt8] = []
    private var skipRemaining = 0
    private var offset = 0
    private var timecodeScale: UInt64 = 1_000_000
    private var clusterTimecode: UInt64 = 0
    private var latestTimecode: UInt64?
    /// Whether the stream broke the format; scanning stopped there.
    private(set) var isBroken = false

    /// The stream bytes read so far.
    var bytesRead: Int { offset }

    /// The timestamp of the latest block received, in seconds; `nil` before the first block.
    var seconds: Double? {
        latestTimecode.map { Double($0) * Double(timecodeScale) / 1e9 }
    }

    /// Reads the next bytes of the stream.
    mutating func feed(_ bytes: some Collection<UInt8>) {
        var index = bytes.startIndex
        while index != bytes.endIndex, !isBroken {
            if skipRemaining > 0 {
                let available = bytes.distance(from: index, to: bytes.endIndex)
                let count = min(skipRemaining, available)
                index = bytes.index(index, offsetBy: count)
                skipRemaining -= count
                offset += count
                continue
            }
            pending.append(bytes[index])
            index = bytes.index(after: index)
            offset += 1
            step()
        }
    }

    private mutating func step() {
        switch mode {
        case .header:
            guard let header = parseHeader() else { return }
            pending.removeAll(keepingCapacity: true)
            enter(id: header.id, size: header.size, start: offset - header.length)
        case .value(let id, let count, let rest):
            guard pending.count == count else { return }
            use(id: id, value: pending)
            pending.removeAll(keepingCapacity: true)
            mode = .header
            skipRemaining = rest
        }
    }

    /// The header in `pending` once complete: ID, size (`nil`: unknown) and length.
    private mutating func parseHeader() -> (id: UInt32, size: Int?, length: Int)? {
        let first = pending[0]
        let idLength = first.leadingZeroBitCount + 1
        guard first != 0, idLength <= 4 else {
            isBroken = true
            return nil
        }
        guard pending.count > idLength else { return nil }
        let sizeFirst = pending[idLength]
        guard sizeFirst != 0 else {
            isBroken = true
            return nil
        }
        let sizeLength = sizeFirst.leadingZeroBitCount + 1
        guard pending.count == idLength + sizeLength else { return nil }
        var id = UInt32(0)
        for byte in pending[0..<idLength] { id = id << 8 | UInt32(byte) }
        let mask = UInt64(0xFF) >> UInt64(sizeLength)
        var value = UInt64(sizeFirst) & mask
        var allOnes = value == mask
        for byte in pending[(idLength + 1)...] {
            value = value << 8 | UInt64(byte)
            allOnes = allOnes && byte == 0xFF
        }
        if allOnes { return (id, nil, pending.count) }
        guard value <= UInt64(Int.max / 4) else {
            isBroken = true
            return nil
        }
        return (id, Int(value), pending.count)
    }

    private mutating func enter(id: UInt32, size: Int?, start: Int) {
        // Leave the masters that ended before this element.
        while levels.count > 1, let end = levels.last!.end, end <= start { levels.removeLast() }
        // An unknown-size cluster ends where a top-level element of the Segment begins.
        if levels.last!.level == .cluster || levels.last!.level == .blockGroup, Self.isSegmentChild(id) {
            while levels.count > 1, levels.last!.level != .segment { levels.removeLast() }
        }
        let end = size.map { offset + $0 }
        switch (levels.last!.level, id) {
        case (.top, MatroskaProbe.segmentID):
            levels.append((.segment, end))
        case (.segment, MatroskaProbe.infoID):
            levels.append((.info, end))
        case (.segment, MatroskaProbe.clusterID):
            clusterTimecode = 0
            levels.append((.cluster, end))
        case (.cluster, 0xA0):
            levels.append((.blockGroup, end))
        case (.info, MatroskaProbe.timecodeScaleID), (.cluster, 0xE7):
            read(id: id, size: size, upTo: 8)
        case (.cluster, 0xA3), (.blockGroup, 0xA1):
            // SimpleBlock / Block: track number (1-8 bytes), then a 16-bit relative timestamp.
            read(id: id, size: size, upTo: 10)
        default:
            guard let size else {
                isBroken = true
                return
            }
            skipRemaining = size
        }
    }

    private mutating func read(id: UInt32, size: Int?, upTo limit: Int) {
        guard let size else {
            isBroken = true
            return
        }
        let count = min(size, limit)
        if count == 0 {
            use(id: id, value: [])
            skipRemaining = size
        } else {
            mode = .value(id: id, count: count, rest: size - count)
        }
    }

    private mutating func use(id: UInt32, value: [UInt8]) {
        switch id {
        case MatroskaProbe.timecodeScaleID:
            let scale = value.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if scale > 0 { timecodeScale = scale }
        case 0xE7:
            clusterTimecode = value.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        default:
            guard let first = value.first, first != 0 else { return }
            let trackLength = first.leadingZeroBitCount + 1
            guard value.count >= trackLength + 2 else { return }
            let relative = Int16(bitPattern: UInt16(value[trackLength]) << 8 | UInt16(value[trackLength + 1]))
            let (sum, overflow) = Int64(clamping: clusterTimecode).addingReportingOverflow(Int64(relative))
            guard !overflow, sum >= 0 else { return }
            latestTimecode = max(latestTimecode ?? 0, UInt64(sum))
        }
    }

    /// The four-byte IDs of the Segment's children (SeekHead, Info, Tracks, Cluster, Cues,
    /// Chapters, Tags, Attachments).
    private static func isSegmentChild(_ id: UInt32) -> Bool {
        [0x114D_9B74, 0x1549_A966, 0x1654_AE6B, 0x1F43_B675, 0x1C53_BB6B, 0x1043_A770, 0x1254_C367, 0x1941_A469]
            .contains(id)
    }
}
