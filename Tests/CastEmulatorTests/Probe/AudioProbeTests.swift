import Testing

@testable import CastEmulator

/// MP3, ADTS AAC, FLAC and Ogg probes on bytes built in Swift.
@Suite struct AudioProbeTests {
    // MARK: Builders

    /// MPEG-1 layer III, 128 kbit/s, 44.1 kHz, stereo: 417-byte frames of 1,152 samples.
    static let mp3Header: [UInt8] = [0xFF, 0xFB, 0x90, 0x00]

    static func mp3Frame(_ extra: [UInt8] = []) -> [UInt8] {
        let body = Array(repeating: UInt8(0), count: 32) + extra
        return mp3Header + body + Array(repeating: 0, count: 417 - 4 - body.count)
    }

    static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func id3(size: Int) -> [UInt8] {
        Array("ID3".utf8) + [4, 0, 0] + [size >> 21, size >> 14, size >> 7, size].map { UInt8($0 & 0x7F) }
            + Array(repeating: 0, count: size)
    }

    static func adtsFrame(length: Int = 200, rateIndex: UInt8 = 4) -> [UInt8] {
        [
            0xFF, 0xF1, 0x40 | rateIndex << 2, 0x80 | UInt8(length >> 11 & 3), UInt8(length >> 3 & 0xFF),
            UInt8((length & 7) << 5) | 0x1F, 0xFC,
        ] + Array(repeating: 0x21, count: length - 7)
    }

    static func flac(sampleRate: UInt64 = 44_100, samples: UInt64 = 441_000, blockType: UInt8 = 0x80) -> [UInt8] {
        let packed = sampleRate << 44 | 1 << 41 | 15 << 36 | samples
        let info: [UInt8] =
            [0x10, 0, 0x10, 0, 0, 0, 0, 0, 0, 0]
            + (0..<8).reversed().map {
                UInt8(truncatingIfNeeded: packed >> ($0 * 8))
            } + Array(repeating: 0, count: 16)
        return Array("fLaC".utf8) + [blockType, 0, 0, 34] + info + [0xFF, 0xF8]
    }

    static func oggPage(granule: Int64, serial: UInt32 = 7, body: [UInt8]) -> [UInt8] {
        var lacing: [UInt8] = Array(repeating: 255, count: body.count / 255)
        lacing.append(UInt8(body.count % 255))
        let granuleBytes = (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: granule) >> ($0 * 8)) }
        let serialBytes = (0..<4).map { UInt8(truncatingIfNeeded: serial >> ($0 * 8)) }
        return Array("OggS".utf8) + [0, 0] + granuleBytes + serialBytes + [0, 0, 0, 0] + [0, 0, 0, 0]
            + [UInt8(lacing.count)] + lacing + body
    }

    static let vorbisHead: [UInt8] =
        [1] + Array("vorbis".utf8) + [0, 0, 0, 0, 2] + [0x44, 0xAC, 0, 0] + Array(repeating: 0, count: 12) + [0xB8, 1]
    static let opusHead: [UInt8] = Array("OpusHead".utf8) + [1, 2, 0x38, 0x01, 0x80, 0xBB, 0, 0, 0, 0, 0]

    /// An Ogg file whose last page ends at `granule`, with 100 kB of pages between.
    static func ogg(head: [UInt8], granule: Int64) -> [UInt8] {
        var bytes = oggPage(granule: 0, body: head)
        for index in 1...50 { bytes += oggPage(granule: Int64(index) * 100, body: Array(repeating: 0x33, count: 2000)) }
        return bytes + oggPage(granule: granule, body: [1, 2, 3]) + oggPage(granule: 99_999_999, serial: 8, body: [4])
    }

    static func reader(_ file: [UInt8]) -> (Int, Int) async throws -> [UInt8] {
        { offset, count in Array(file[min(offset, file.count)..<min(file.count, offset + count)]) }
    }

    // MARK: MP3

    @Test func mp3DurationFromAXingHeader() async throws {
        let file = Self.mp3Frame(Array("Xing".utf8) + Self.be32(0x0F) + Self.be32(1000)) + Self.mp3Frame()
        let result = try await MP3Probe.probe(head: file, fileSize: 10_000_000, read: Self.reader(file))
        #expect(result.duration == 1000 * 1152 / 44_100.0)
        #expect(result.tracks.map(\.kind) == [.audio])
    }

    @Test func mp3DurationFromAVBRIHeader() async throws {
        let vbri = Array("VBRI".utf8) + [0, 1, 0, 0, 0, 50] + Self.be32(1_000_000) + Self.be32(441)
        let file = Self.mp3Frame(vbri) + Self.mp3Frame()
        let result = try await MP3Probe.probe(head: file, fileSize: file.count, read: Self.reader(file))
        #expect(result.duration == 441 * 1152 / 44_100.0)
    }

    @Test func cbrMP3DurationFromSizeAndBitrateAfterAnID3Tag() async throws {
        let tag = Self.id3(size: 2000)
        let frames = (0..<100).flatMap { _ in Self.mp3Frame() }
        let file = tag + frames
        #expect(MP3Probe.looksLikeMP3(file))
        let result = try await MP3Probe.probe(
            head: Array(file.prefix(8192)),
            fileSize: file.count,
            read: Self.reader(file)
        )
        #expect(result.duration == Double(frames.count) * 8 / 128_000)
    }

    /// A tag larger than the head: the frames after it are read with a range.
    @Test func anID3TagLargerThanTheHeadIsSkippedWithARangedRead() async throws {
        let file = Self.id3(size: 100_000) + (0..<10).flatMap { _ in Self.mp3Frame() }
        let result = try await MP3Probe.probe(
            head: Array(file.prefix(65_536)),
            fileSize: file.count,
            read: Self.reader(file)
        )
        #expect(result.duration == 4170.0 * 8 / 128_000)
    }

    @Test func anMP3StreamWithoutLengthIsLive() async throws {
        let file = (0..<10).flatMap { _ in Self.mp3Frame() }
        let result = try await MP3Probe.probe(head: file, fileSize: nil, read: Self.reader(file))
        #expect(result.isLive && result.duration == nil)
    }

    @Test func mp3FrameHeaderTables() {
        // MPEG-2 layer III 64 kbit/s 22.05 kHz: 576 samples, 72 × 64000 / 22050 = 208 bytes.
        let header = MP3Probe.frameHeader([0xFF, 0xF3, 0x80, 0xC0][...], at: 0)
        #expect(header?.sampleRate == 22_050 && header?.samplesPerFrame == 576 && header?.length == 208)
        #expect(header?.isMono == true)
        // Reserved version, reserved layer, free and bad bitrates, reserved rate.
        for bytes: [UInt8] in [
            [0xFF, 0xEB, 0x90, 0], [0xFF, 0xF9, 0x90, 0], [0xFF, 0xFB, 0x00, 0], [0xFF, 0xFB, 0xF0, 0],
            [0xFF, 0xFB, 0x9C, 0],
        ] {
            #expect(MP3Probe.frameHeader(bytes[...], at: 0) == nil)
        }
    }

    static let malformedMP3: [(String, [UInt8], MediaProbeError.Code)] = [
        (
            "ID3 size not syncsafe", Array("ID3".utf8) + [4, 0, 0, 0x80, 0, 0, 0] + Array(repeating: 0, count: 100),
            .malformed
        ),
        ("ID3 tag only", id3(size: 100), .truncated),
        ("noise after ID3", id3(size: 10) + Array(repeating: 0x42, count: 5000), .notSupported),
        ("no audio after Xing frame start", [], .notSupported),
    ]

    @Test(arguments: malformedMP3)
    func rejectsMalformedMP3(name: String, bytes: [UInt8], code: MediaProbeError.Code) async {
        await #expect(throws: MediaProbeError(code: code, context: name)) {
            try await MP3Probe.probe(head: bytes, fileSize: bytes.count, read: Self.reader(bytes))
        }
    }

    @Test func everyTruncationOfAnMP3HeaderIsRejectedOrRead() async {
        let file = Self.id3(size: 30) + Self.mp3Frame(Array("Xing".utf8) + Self.be32(1) + Self.be32(10))
        for length in 0..<file.count {
            let prefix = Array(file.prefix(length))
            // Cut before the Xing frame count: nothing, a broken tag, or a CBR estimate.
            let result = try? await MP3Probe.probe(head: prefix, fileSize: prefix.count, read: Self.reader(prefix))
            if let duration = result?.duration { #expect(duration.isFinite && duration >= 0) }
            if length <= 40 { #expect(result == nil) }
        }
    }

    // MARK: ADTS

    @Test func adtsDurationFromFramesAndSize() throws {
        let frames = (0..<50).flatMap { _ in Self.adtsFrame() }
        let whole = try ADTSProbe.probe(head: frames, start: 0, fileSize: frames.count)
        #expect(whole.duration == 50 * 1024 / 44_100.0)
        // Only 10 frames read of 50: the rest estimated from their length.
        let estimated = try ADTSProbe.probe(head: Array(frames.prefix(2050)), start: 0, fileSize: frames.count)
        #expect(estimated.duration == 50 * 1024 / 44_100.0)
        let tagged = Self.id3(size: 20) + frames
        #expect(ADTSProbe.looksLikeADTS(tagged, at: 30))
        #expect(try ADTSProbe.probe(head: tagged, start: 30, fileSize: tagged.count).duration == 50 * 1024 / 44_100.0)
        #expect(try ADTSProbe.probe(head: frames, start: 0, fileSize: nil).isLive)
        #expect(!ADTSProbe.looksLikeADTS(Self.mp3Frame() + Self.mp3Frame()))
    }

    static let malformedADTS: [(String, [UInt8], MediaProbeError.Code)] = [
        ("no frame", Array(repeating: 0x42, count: 100), .notSupported),
        ("rate index 13", adtsFrame(rateIndex: 13), .notSupported),
        ("frame shorter than its header", Array(adtsFrame().prefix(3)) + [0, 0, 0, 0], .notSupported),
        ("rate changes", adtsFrame() + adtsFrame(rateIndex: 3), .malformed),
        (
            "garbage between frames", adtsFrame() + [0x42, 0x42, 0x42, 0x42, 0x42, 0x42, 0x42, 0x42] + adtsFrame(),
            .malformed
        ),
        ("frame cut short", Array(adtsFrame().prefix(150)), .truncated),
    ]

    @Test(arguments: malformedADTS)
    func rejectsMalformedADTS(name: String, bytes: [UInt8], code: MediaProbeError.Code) {
        #expect(throws: MediaProbeError(code: code, context: name)) {
            try ADTSProbe.probe(head: bytes, start: 0, fileSize: bytes.count)
        }
    }

    // MARK: FLAC

    @Test func flacDurationFromStreamInfo() throws {
        let result = try FLACProbe.probe(head: Self.flac())
        #expect(result.duration == 10)
        #expect(try FLACProbe.probe(head: Self.flac(sampleRate: 96_000, samples: 48_000)).duration == 0.5)
        // Unknown total samples: no duration from the file.
        #expect(try FLACProbe.probe(head: Self.flac(samples: 0)).duration == nil)
    }

    static let malformedFLAC: [(String, [UInt8], MediaProbeError.Code)] = [
        ("not FLAC", Array("OggS".utf8), .notSupported),
        ("rate 0", flac(sampleRate: 0), .malformed),
        ("first block not STREAMINFO", flac(blockType: 0x84), .malformed),
        ("short STREAMINFO", Array("fLaC".utf8) + [0x80, 0, 0, 10] + Array(repeating: 0, count: 10), .malformed),
    ]

    @Test(arguments: malformedFLAC)
    func rejectsMalformedFLAC(name: String, bytes: [UInt8], code: MediaProbeError.Code) {
        #expect(throws: MediaProbeError(code: code, context: name)) { try FLACProbe.probe(head: bytes) }
    }

    @Test func everyTruncationOfAFLACHeaderIsRejected() {
        let bytes = Self.flac()
        for length in 0..<42 {
            #expect(throws: MediaProbeError.self) { try FLACProbe.probe(head: Array(bytes.prefix(length))) }
        }
    }

    // MARK: Ogg

    @Test func oggVorbisDurationFromTheLastPage() async throws {
        let file = Self.ogg(head: Self.vorbisHead, granule: 441_000)
        let result = try await OggProbe.probe(
            head: Array(file.prefix(65_536)),
            fileSize: file.count,
            read: Self.reader(file)
        )
        #expect(result.duration == 10)
        #expect(result.tracks.first?.codec == "vorbis")
    }

    @Test func oggOpusDurationLessItsPreSkip() async throws {
        let file = Self.ogg(head: Self.opusHead, granule: 480_312)
        let result = try await OggProbe.probe(head: file, fileSize: file.count, read: Self.reader(file))
        #expect(result.duration == 10)
        #expect(result.tracks.first?.codec == "opus")
    }

    @Test func anOggStreamWithoutLengthIsLive() async throws {
        let file = Self.ogg(head: Self.opusHead, granule: 1)
        #expect(try await OggProbe.probe(head: file, fileSize: nil, read: Self.reader(file)).isLive)
    }

    static let malformedOgg: [(String, [UInt8], MediaProbeError.Code)] = [
        ("not Ogg", Array("RIFF".utf8), .notSupported),
        (
            "Theora", oggPage(granule: 0, body: [0x80] + Array("theora".utf8) + Array(repeating: 0, count: 40)),
            .notSupported
        ),
        ("bad version", Array("OggS".utf8) + [1] + Array(repeating: 0, count: 40), .malformed),
        (
            "Vorbis rate 0", oggPage(granule: 0, body: [1] + Array("vorbis".utf8) + Array(repeating: 0, count: 23)),
            .malformed
        ),
        ("no last page", oggPage(granule: 0, body: vorbisHead) + Array("OggS".utf8) + [0, 0], .truncated),
    ]

    @Test(arguments: malformedOgg)
    func rejectsMalformedOgg(name: String, bytes: [UInt8], code: MediaProbeError.Code) async {
        await #expect(throws: MediaProbeError(code: code, context: name)) {
            try await OggProbe.probe(head: bytes, fileSize: bytes.count + 1, read: { _, _ in Array(bytes.prefix(20)) })
        }
    }

    @Test func everyTruncationOfTheFirstOggPageIsRejected() async {
        let page = Self.oggPage(granule: 0, body: Self.vorbisHead)
        for length in 0..<page.count {
            let prefix = Array(page.prefix(length))
            await #expect(throws: MediaProbeError.self) {
                try await OggProbe.probe(head: prefix, fileSize: 1_000_000, read: { _, _ in [] })
            }
        }
    }
}
