/// Reads the duration and tracks of a WebM or Matroska file from the start of its
/// `Segment`: the EBML header, then `Info` (`TimecodeScale`, `Duration`) and `Tracks`.
///
/// Only a prefix of the file is read (the fetcher's first bytes): the walk stops at the first
/// `Cluster`, so a never-ending live stream (an unknown-size `Segment`, as VLC and other
/// live muxers write) is probed without waiting for its end.
enum MatroskaProbe {
    // MARK: Element IDs (the marker bits kept, as the Matroska specification writes them)

    static let ebmlID: UInt32 = 0x1A45_DFA3
    static let docTypeID: UInt32 = 0x4282
    static let segmentID: UInt32 = 0x1853_8067
    static let infoID: UInt32 = 0x1549_A966
    static let timecodeScaleID: UInt32 = 0x2A_D7B1
    static let durationID: UInt32 = 0x4489
    static let tracksID: UInt32 = 0x1654_AE6B
    static let trackEntryID: UInt32 = 0xAE
    static let trackNumberID: UInt32 = 0xD7
    static let trackTypeID: UInt32 = 0x83
    static let codecID: UInt32 = 0x86
    static let languageID: UInt32 = 0x22_B59C
    static let languageBCP47ID: UInt32 = 0x22_B59D
    static let videoID: UInt32 = 0xE0
    static let pixelWidthID: UInt32 = 0xB0
    static let pixelHeightID: UInt32 = 0xBA
    static let clusterID: UInt32 = 0x1F43_B675

    /// The most `Segment` children walked before the first `Cluster`.
    static let maximumSegmentChildren = 256
    /// The most track entries read.
    static let maximumTracks = 128

    /// One element header: its ID, where its data starts and its size (`nil`: unknown).
    struct Element: Equatable {
        var id: UInt32
        var dataStart: Int
        var size: Int?
    }

    /// Whether `bytes` start with an EBML header.
    static func looksLikeMatroska(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && bytes[0] == 0x1A && bytes[1] == 0x45 && bytes[2] == 0xDF && bytes[3] == 0xA3
    }

    /// Reads duration, stream type and tracks from the first bytes of a file.
    /// - Parameters:
    ///   - head: the first bytes of the file (or of the stream).
    ///   - isComplete: whether `head` is the whole file (an element cut short is then an
    ///     error, not just the end of the prefix).
    /// - Throws: ``MediaProbeError``: `notSupported` for another EBML document type,
    ///   `truncated` when `Info` or `Tracks` do not fit in `head`, `malformed` for a bad
    ///   variable-length integer, size or value.
    static func probe(head bytes: [UInt8], isComplete: Bool) throws(MediaProbeError) -> MediaProbeResult {
        guard looksLikeMatroska(bytes) else {
            throw MediaProbeError(code: .notSupported, context: "no EBML header")
        }
        guard let header = try element(in: bytes, at: 0, end: bytes.count) else {
            throw MediaProbeError(code: .truncated, context: "EBML header")
        }
        guard let headerSize = header.size, header.dataStart + headerSize <= bytes.count else {
            throw MediaProbeError(code: .truncated, context: "EBML header")
        }
        let headerEnd = header.dataStart + headerSize
        var docType = "matroska"
        for child in try children(bytes, from: header.dataStart, to: headerEnd, context: "EBML header")
        where child.id == docTypeID {
            docType = string(bytes, child)
        }
        guard docType == "webm" || docType == "matroska" else {
            throw MediaProbeError(code: .notSupported, context: "EBML document type \"\(docType.prefix(32))\"")
        }

        // The Segment follows the header (possibly after Void elements).
        var index = headerEnd
        var segment: Element?
        for _ in 0..<16 {
            guard let next = try element(in: bytes, at: index, end: bytes.count) else { break }
            if next.id == segmentID {
                segment = next
                break
            }
            guard let size = next.size else {
                throw MediaProbeError(code: .malformed, context: "unknown-size element before the Segment")
            }
            index = try end(of: next, size: size)
        }
        guard let segment else { throw MediaProbeError(code: .truncated, context: "no Segment") }

        var timecodeScale: UInt64 = 1_000_000
        var durationUnits: Double?
        var infoSeen = false
        var tracks: [MediaProbeResult.Track]?
        let segmentEnd = segment.size.map { segment.dataStart + $0 }
        index = segment.dataStart
        walk: for _ in 0..<maximumSegmentChildren {
            if let segmentEnd, index >= segmentEnd { break }
            guard
                let child = try element(
                    in: bytes,
                    at: index,
                    end: segmentEnd.map { min($0, bytes.count) } ?? bytes.count
                )
            else {
                break
            }
            if child.id == clusterID { break }
            guard let size = child.size else {
                // Only Segments and Clusters may have an unknown size.
                throw MediaProbeError(code: .malformed, context: "unknown size of element \(hex(child.id))")
            }
            let childEnd = try end(of: child, size: size)
            if let segmentEnd, childEnd > segmentEnd {
                throw MediaProbeError(code: .malformed, context: "element \(hex(child.id)) runs past its Segment")
            }
            switch child.id {
            case infoID, tracksID:
                guard childEnd <= bytes.count else { break walk }
                if child.id == infoID {
                    infoSeen = true
                    for field in try children(bytes, from: child.dataStart, to: childEnd, context: "Info") {
                        if field.id == timecodeScaleID {
                            timecodeScale = try unsigned(bytes, field, context: "TimecodeScale")
                            guard timecodeScale > 0 else {
                                throw MediaProbeError(code: .malformed, context: "TimecodeScale 0")
                            }
                        } else if field.id == durationID {
                            durationUnits = try float(bytes, field, context: "Duration")
                        }
                    }
                } else {
                    tracks = try parseTracks(bytes, from: child.dataStart, to: childEnd)
                }
            default:
                break
            }
            if infoSeen, tracks != nil { break }
            index = childEnd
        }
        guard infoSeen, let tracks else {
            let missing = infoSeen ? "Tracks" : "Info"
            if !isComplete || (segmentEnd ?? .max) > bytes.count {
                throw MediaProbeError(code: .truncated, context: "no \(missing) in the first \(bytes.count) bytes")
            }
            throw MediaProbeError(code: .malformed, context: "Segment without \(missing)")
        }
        var result = MediaProbeResult(tracks: tracks)
        if segment.size == nil || durationUnits == nil {
            result.isLive = true
        } else if let durationUnits {
            let seconds = durationUnits * Double(timecodeScale) / 1e9
            guard seconds.isFinite, seconds >= 0 else {
                throw MediaProbeError(code: .malformed, context: "Duration \(durationUnits)")
            }
            result.duration = seconds
        }
        return result
    }

    static func parseTracks(
        _ bytes: [UInt8],
        from start: Int,
        to end: Int
    ) throws(MediaProbeError) -> [MediaProbeResult
        .Track]
    {
        var tracks: [MediaProbeResult.Track] = []
        for entry in try children(bytes, from: start, to: end, context: "Tracks") where entry.id == trackEntryID {
            guard tracks.count < maximumTracks else {
                throw MediaProbeError(code: .tooLarge, context: "more than \(maximumTracks) tracks")
            }
            let entryEnd = entry.dataStart + (entry.size ?? 0)
            var number: UInt64?
            var type: UInt64?
            var codec: String?
            var language = "eng"
            var bcp47: String?
            var width: Int?
            var height: Int?
            for field in try children(bytes, from: entry.dataStart, to: entryEnd, context: "TrackEntry") {
                switch field.id {
                case trackNumberID: number = try unsigned(bytes, field, context: "TrackNumber")
                case trackTypeID: type = try unsigned(bytes, field, context: "TrackType")
                case codecID: codec = string(bytes, field)
                case languageID: language = string(bytes, field)
                case languageBCP47ID: bcp47 = string(bytes, field)
                case videoID:
                    let videoEnd = field.dataStart + (field.size ?? 0)
                    for picture in try children(bytes, from: field.dataStart, to: videoEnd, context: "Video") {
                        if picture.id == pixelWidthID {
                            width = try dimension(bytes, picture, context: "PixelWidth")
                        } else if picture.id == pixelHeightID {
                            height = try dimension(bytes, picture, context: "PixelHeight")
                        }
                    }
                default: break
                }
            }
            guard let number, number > 0, number <= UInt64(Int32.max) else {
                throw MediaProbeError(code: .malformed, context: "TrackEntry without a TrackNumber")
            }
            let code = bcp47 ?? language
            let spoken = code.isEmpty || code == "und" ? nil : String(code.prefix(35))
            let kind: MediaProbeResult.TrackKind
            switch type {
            case 1: kind = .video
            case 2: kind = .audio
            case 17: kind = .text
            default: continue
            }
            tracks.append(
                .init(
                    kind: kind,
                    number: Int(number),
                    width: kind == .video ? width : nil,
                    height: kind == .video ? height : nil,
                    language: spoken,
                    codec: codec.map { String($0.prefix(64)) }
                )
            )
        }
        return tracks
    }

    // MARK: EBML

    /// The element header at `index`, or `nil` when the bytes end inside it (`end`).
    /// - Throws: `malformed` for a variable-length integer longer than EBML allows.
    static func element(in bytes: [UInt8], at index: Int, end: Int) throws(MediaProbeError) -> Element? {
        guard index < end else { return nil }
        let first = bytes[index]
        guard first != 0 else { throw MediaProbeError(code: .malformed, context: "element ID at \(index)") }
        let idLength = first.leadingZeroBitCount + 1
        guard idLength <= 4 else { throw MediaProbeError(code: .malformed, context: "element ID at \(index)") }
        guard index + idLength < end else { return nil }
        var id = UInt32(0)
        for offset in 0..<idLength { id = id << 8 | UInt32(bytes[index + offset]) }
        let sizeIndex = index + idLength
        let sizeFirst = bytes[sizeIndex]
        guard sizeFirst != 0 else {
            throw MediaProbeError(code: .malformed, context: "size of element \(hex(id)) at \(index)")
        }
        let sizeLength = sizeFirst.leadingZeroBitCount + 1
        guard sizeIndex + sizeLength <= end else { return nil }
        var value = UInt64(sizeFirst) & (0xFF >> UInt64(sizeLength))
        var allOnes = value == (0xFF >> UInt64(sizeLength))
        for offset in 1..<max(1, sizeLength) {
            let byte = bytes[sizeIndex + offset]
            value = value << 8 | UInt64(byte)
            allOnes = allOnes && byte == 0xFF
        }
        let dataStart = sizeIndex + sizeLength
        if allOnes { return Element(id: id, dataStart: dataStart, size: nil) }
        guard value <= UInt64(Int.max / 4) else {
            throw MediaProbeError(code: .malformed, context: "size \(value) of element \(hex(id))")
        }
        return Element(id: id, dataStart: dataStart, size: Int(value))
    }

    /// The children of a master element whose data spans `start..<end` (all within `bytes`).
    static func children(
        _ bytes: [UInt8],
        from start: Int,
        to end: Int,
        context: String
    ) throws(MediaProbeError) -> [Element] {
        var elements: [Element] = []
        var index = start
        while index < end {
            guard elements.count < 4096 else { throw MediaProbeError(code: .tooLarge, context: context) }
            guard let child = try element(in: bytes, at: index, end: end), let size = child.size else {
                throw MediaProbeError(code: .truncated, context: "element in \(context)")
            }
            let childEnd = try self.end(of: child, size: size)
            guard childEnd <= end else {
                throw MediaProbeError(code: .truncated, context: "element \(hex(child.id)) in \(context)")
            }
            elements.append(child)
            index = childEnd
        }
        return elements
    }

    private static func end(of element: Element, size: Int) throws(MediaProbeError) -> Int {
        let (end, overflow) = element.dataStart.addingReportingOverflow(size)
        guard !overflow else { throw MediaProbeError(code: .malformed, context: "size of \(hex(element.id))") }
        return end
    }

    static func unsigned(_ bytes: [UInt8], _ element: Element, context: String) throws(MediaProbeError) -> UInt64 {
        let size = element.size ?? 0
        guard size <= 8 else { throw MediaProbeError(code: .malformed, context: "\(context) of \(size) bytes") }
        var value: UInt64 = 0
        for offset in 0..<size { value = value << 8 | UInt64(bytes[element.dataStart + offset]) }
        return value
    }

    static func float(_ bytes: [UInt8], _ element: Element, context: String) throws(MediaProbeError) -> Double {
        let start = element.dataStart
        let value: Double
        switch element.size ?? 0 {
        case 0: value = 0
        case 4:
            let bits = (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[start + $1]) }
            value = Double(Float(bitPattern: bits))
        case 8:
            let bits = (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[start + $1]) }
            value = Double(bitPattern: bits)
        default:
            throw MediaProbeError(code: .malformed, context: "\(context) of \(element.size ?? 0) bytes")
        }
        guard value.isFinite, value >= 0 else {
            throw MediaProbeError(code: .malformed, context: "\(context) \(value)")
        }
        return value
    }

    private static func dimension(_ bytes: [UInt8], _ element: Element, context: String) throws(MediaProbeError) -> Int
    {
        let value = try unsigned(bytes, element, context: context)
        guard value <= 65_535 else { throw MediaProbeError(code: .malformed, context: "\(context) \(value)") }
        return Int(value)
    }

    /// An EBML string: printable ASCII up to the first NUL (longer values are cut).
    static func string(_ bytes: [UInt8], _ element: Element) -> String {
        let size = min(element.size ?? 0, 256)
        let raw = bytes[element.dataStart..<(element.dataStart + size)].prefix { $0 != 0 }
        return String(decoding: raw.filter { (0x20...0x7E).contains($0) }, as: UTF8.self)
    }

    private static func hex(_ id: UInt32) -> String { "0x" + String(id, radix: 16, uppercase: true) }
}
