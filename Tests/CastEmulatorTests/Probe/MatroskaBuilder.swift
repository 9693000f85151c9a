/// Writes WebM/Matroska bytes element by element for the probe tests.
enum MatroskaBuilder {
    static let unknownSize: [UInt8] = [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]

    static func id(_ id: UInt32) -> [UInt8] {
        let bytes = [UInt8(id >> 24), UInt8(id >> 16 & 0xFF), UInt8(id >> 8 & 0xFF), UInt8(id & 0xFF)]
        return Array(bytes.drop { $0 == 0 })
    }

    /// An 8-byte size field (as ffmpeg writes for masters).
    static func size(_ size: Int) -> [UInt8] {
        [0x01] + (0..<7).reversed().map { UInt8(truncatingIfNeeded: size >> ($0 * 8)) }
    }

    static func element(_ elementID: UInt32, _ data: [UInt8]) -> [UInt8] {
        id(elementID) + size(data.count) + data
    }

    static func master(_ elementID: UInt32, _ children: [[UInt8]]) -> [UInt8] {
        element(elementID, children.flatMap { $0 })
    }

    static func uint(_ elementID: UInt32, _ value: UInt64) -> [UInt8] {
        var bytes = (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        while bytes.count > 1 && bytes.first == 0 { bytes.removeFirst() }
        return element(elementID, bytes)
    }

    static func float64(_ elementID: UInt32, _ value: Double) -> [UInt8] {
        element(elementID, (0..<8).reversed().map { UInt8(truncatingIfNeeded: value.bitPattern >> ($0 * 8)) })
    }

    static func float32(_ elementID: UInt32, _ value: Float) -> [UInt8] {
        element(elementID, (0..<4).reversed().map { UInt8(truncatingIfNeeded: value.bitPattern >> ($0 * 8)) })
    }

    static func string(_ elementID: UInt32, _ value: String) -> [UInt8] { element(elementID, Array(value.utf8)) }

    static func header(docType: String = "webm") -> [UInt8] {
        master(0x1A45_DFA3, [uint(0x4286, 1), string(0x4282, docType), uint(0x4287, 4)])
    }

    static func info(durationMilliseconds: Double?, scale: UInt64 = 1_000_000) -> [UInt8] {
        var children = [uint(0x2A_D7B1, scale), string(0x4D80, "test")]
        if let durationMilliseconds { children.append(float64(0x4489, durationMilliseconds)) }
        return master(0x1549_A966, children)
    }

    static func videoTrack(number: UInt64 = 1, width: UInt64 = 640, height: UInt64 = 360) -> [UInt8] {
        master(
            0xAE,
            [
                uint(0xD7, number), uint(0x73C5, number), uint(0x83, 1), string(0x86, "V_VP9"),
                master(0xE0, [uint(0xB0, width), uint(0xBA, height)]),
            ]
        )
    }

    static func audioTrack(number: UInt64 = 2, language: String? = "fre") -> [UInt8] {
        var children = [uint(0xD7, number), uint(0x83, 2), string(0x86, "A_OPUS")]
        if let language { children.append(string(0x22_B59C, language)) }
        return master(0xAE, children)
    }

    static func textTrack(number: UInt64 = 3) -> [UInt8] {
        master(0xAE, [uint(0xD7, number), uint(0x83, 17), string(0x86, "S_TEXT/WEBVTT"), string(0x22_B59C, "und")])
    }

    static func tracks(_ entries: [[UInt8]] = [videoTrack(), audioTrack()]) -> [UInt8] {
        master(0x1654_AE6B, entries)
    }

    /// A cluster at `timecode` holding one SimpleBlock per relative timestamp.
    static func cluster(timecode: UInt64, blocks: [Int16], payload: Int = 100, unknownSize: Bool = false) -> [UInt8] {
        var children = uint(0xE7, timecode)
        for relative in blocks {
            let bits = UInt16(bitPattern: relative)
            children += element(
                0xA3,
                [0x81, UInt8(bits >> 8), UInt8(bits & 0xFF), 0x80] + Array(repeating: 0x55, count: payload)
            )
        }
        return unknownSize ? id(0x1F43_B675) + Self.unknownSize + children : element(0x1F43_B675, children)
    }

    /// A whole file: header, then a Segment holding `children`.
    static func file(segment children: [[UInt8]], docType: String = "webm", unknownSegmentSize: Bool = false) -> [UInt8]
    {
        let data = children.flatMap { $0 }
        let segment = id(0x1853_8067) + (unknownSegmentSize ? unknownSize : size(data.count)) + data
        return header(docType: docType) + segment
    }

    static func typical(durationMilliseconds: Double? = 5000, unknownSegmentSize: Bool = false) -> [UInt8] {
        file(
            segment: [
                element(0x114D_9B74, Array(repeating: 0, count: 20)), info(durationMilliseconds: durationMilliseconds),
                tracks(), cluster(timecode: 0, blocks: [0, 40]),
            ],
            unknownSegmentSize: unknownSegmentSize
        )
    }
}
