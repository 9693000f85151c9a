/// Writes small ISO base media files byte by byte for the probe tests.
enum MP4Builder {
    static func u32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func u64(_ value: UInt64) -> [UInt8] { u32(UInt32(value >> 32)) + u32(UInt32(value & 0xFFFF_FFFF)) }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        u32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    static func mvhd(timescale: UInt32, duration: UInt32) -> [UInt8] {
        box("mvhd", [0, 0, 0, 0] + u32(0) + u32(0) + u32(timescale) + u32(duration) + [UInt8](repeating: 0, count: 80))
    }

    static func mvhd64(timescale: UInt32, duration: UInt64) -> [UInt8] {
        box("mvhd", [1, 0, 0, 0] + u64(0) + u64(0) + u32(timescale) + u64(duration) + [UInt8](repeating: 0, count: 80))
    }

    static func tkhd(id: UInt32, width: UInt32, height: UInt32) -> [UInt8] {
        var payload: [UInt8] = [0, 0, 0, 3] + u32(0) + u32(0) + u32(id) + u32(0) + u32(0)
        payload += [UInt8](repeating: 0, count: 8 + 2 + 2 + 2 + 2 + 36)
        payload += u32(width << 16) + u32(height << 16)
        return box("tkhd", payload)
    }

    static func track(
        id: UInt32,
        handler: String,
        width: UInt32 = 0,
        height: UInt32 = 0,
        language: String = "und"
    )
        -> [UInt8]
    {
        let letters = Array(language.utf8).map { UInt16($0 - 0x60) }
        let packed = letters[0] << 10 | letters[1] << 5 | letters[2]
        let mdhd = box(
            "mdhd",
            [0, 0, 0, 0] + u32(0) + u32(0) + u32(48_000) + u32(48_000 * 8) + [UInt8(packed >> 8), UInt8(packed & 0xFF)]
                + [0, 0]
        )
        let hdlr = box("hdlr", [0, 0, 0, 0] + u32(0) + Array(handler.utf8) + [UInt8](repeating: 0, count: 13))
        return box("trak", tkhd(id: id, width: width, height: height) + box("mdia", mdhd + hdlr))
    }

    /// A movie of `seconds` with a 320x240 video and an English audio track.
    static func movie(seconds: UInt32 = 8) -> [UInt8] {
        box(
            "moov",
            mvhd(timescale: 1000, duration: seconds * 1000)
                + track(id: 1, handler: "vide", width: 320, height: 240)
                + track(id: 2, handler: "soun", language: "eng")
        )
    }

    static let fileType = box("ftyp", Array("isom".utf8) + u32(512) + Array("isomiso2avc1mp41".utf8))

    /// ftyp, moov, mdat (moov at the start).
    static func fastStart(mdatSize: Int = 1000) -> [UInt8] {
        fileType + movie() + box("mdat", [UInt8](repeating: 0, count: mdatSize))
    }

    /// ftyp, mdat, moov (moov at the end).
    static func moovAtEnd(mdatSize: Int = 100_000) -> [UInt8] {
        fileType + box("mdat", [UInt8](repeating: 0, count: mdatSize)) + movie()
    }
}
