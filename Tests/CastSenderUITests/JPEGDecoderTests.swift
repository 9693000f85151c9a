import CastEmulator
import CastTestSupport
import Foundation
import Testing

@testable import CastSenderUI

/// The JPEG decoder: files written by third-party encoders (ffmpeg's MJPEG encoder for
/// baseline 4:4:4, 4:2:2 and 4:2:0 with and without restart markers; libjpeg-turbo through
/// Pillow for progressive, greyscale and restart intervals) compared with ffmpeg's own decode,
/// then malformed input of every kind.
@Suite struct JPEGDecoderTests {
    // MARK: Samples that need no tool

    /// 32×32, baseline 4:2:0, two slices separated by a restart marker: written by ffmpeg's
    /// MJPEG encoder (`-threads 2 -slices 2`) from its `testsrc2` pattern.
    static let baselineWithRestart = Array(
        Data(
            base64Encoded:
                "/9j/4AAQSkZJRgABAgAAAQABAAD//gAQTGF2YzU5LjM3LjEwMAD/2wBDAAgMDA4MDhAQEBAQEBMSExQUFBMTExMUFBQVFRUZGRkV"
                + "FRUUFBUVGBgZGRscGxoaGRocHB4eHiQkIiIqKiszMz7/3QAEAAL/xAGiAAABBQEBAQEBAQAAAAAAAAAAAQIDBAUGBwgJCgsBAAMB"
                + "AQEBAQEBAQEAAAAAAAABAgMEBQYHCAkKCxAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAk"
                + "M2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKj"
                + "pKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6EQACAQIEBAMEBwUEBAABAncAAQID"
                + "EQQFITEGEkFRB2FxEyIygQgUQpGhscEJIzNS8BVictEKFiQ04SXxFxgZGiYnKCkqNTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZn"
                + "aGlqc3R1dnd4eXqCg4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2dri4+Tl5ufo6ery"
                + "8/T19vf4+fr/wAARCAAgACADASIAAhEAAxEA/9oADAMBAAIRAxEAPwDy5jcyTvHDztXcfuAKoUEszNgKB6k4rsLbU9ZgdkWXaSgc"
                + "nZblSmCd+8qU2++cZ4rJtmVjfQ7fMd/s7LFnBkWI7nVT67ew+b0FdAjJ9j+y7MS/6z7NuO4RmbzNm7ru2dvv45xXjZtmEsfP95Sj"
                + "KKl7sZ/vORVFGTkua3urSPwpabnu4nBQeK9+Tbo+1cJefM4+zj7rs5JX0k3b7LPNP9Js503fI23cp+RlZWXhlYblYEdwSK6aw1HU"
                + "izrDJzjc3yxYCrnlmZcKB6kiq9y2z+zYU228sbzPsds/ZxLKHi8xiD0XBO75gPvCrtk2/wC3xsVnkd432ocCby5WaTYQB1HIxzjo"
                + "K+irZliqlHnlOTe2s5NW9tyc9r25be/8drdbanHPDwnh6uHlJulJqUoP4ZSUYzUWray5ko/Be/S+h//Q8luP+Ppvw/8AQBVmHv8A"
                + "hVa4/wCPpvw/9AFWYe/4V5D/AIcf8MTvzT/kZT/xVP8A0uZzkf3h/ntWvF3/AArIj+8P89q14u/4V9bV/T9Tgqf7rU/xL84n/9k="
        )!
    )

    /// The same picture re-encoded by libjpeg-turbo (Pillow) as a progressive 4:2:0 JPEG of
    /// ten scans.
    static let progressive = Array(
        Data(
            base64Encoded:
                "/9j/4AAQSkZJRgABAQAAAQABAAD//gAQTGF2YzU5LjM3LjEwMAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0a"
                + "HBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/2wBDAQkJCQwLDBgNDRgyIRwhMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIy"
                + "MjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjL/wgARCAAgACADASIAAhEBAxEB/8QAGAAAAwEBAAAAAAAAAAAAAAAAAgQFBgP/xAAX"
                + "AQEBAQEAAAAAAAAAAAAAAAAEAwEF/9oADAMBAAIQAxAAAAHL2FXzMzVIOzJTjAxZObUb6cf/xAAeEAACAgICAwAAAAAAAAAAAAAC"
                + "AwABBBExMxMUI//aAAgBAQABBQK/ITF5OYBfRLEZGRterlXXrsvUTe4zuCDyMZ3BB5Gf/8QAHhEAAQQBBQAAAAAAAAAAAAAAAQAC"
                + "AwQTITEzNEH/2gAIAQMBAT8Bmrty6+J0YMZjOyu9kp3EV//EABsRAAIDAAMAAAAAAAAAAAAAAAABAgMEESJB/9oACAECAQE/Adml"
                + "3vsieq1w5Z4iR//EACIQAAICAQMEAwAAAAAAAAAAAAERAAIhAyIxBBITQjBRYf/aAAgBAQAGPwI1pCBZYfAgeDCKGa1EyVt+1PEt"
                + "3PZ+OdPQKlwSUfVnE16lXsSDj2z8P//EAB4QAAEFAQADAQAAAAAAAAAAAAEAESExQVFhgfCR/9oACAEBAAE/IbUsHyB1PxUhhbr0"
                + "vFBwYIIR87ZzApHpPDqSIWV982N+e1t6g7HFTYxAsOLK37FpULat+xaVC2v/2gAMAwEAAgADAAAAEJs1/f/EACARAAEDAgcAAAAA"
                + "AAAAAAAAAAEAESExkUFxgaGx0fD/2gAIAQMBAT8QInl7HVmGfgi6TkjAlgbvFEV48lb7pf/EAB0RAAICAgMBAAAAAAAAAAAAAAER"
                + "ACExcUFRkbH/2gAIAQIBAT8QHy0OgbTRehiP4fT2nrnMPyg1P//EACAQAQACAgICAwEAAAAAAAAAAAEAESFRMUFhwXGh8JH/2gAI"
                + "AQEAAT8QYNy7gACpcAbZYmDclVcg083V4hSnfwDCJYidlwYvg8F5VMHlSKae4soO61nU/oq6Lnc3p0zULtV/oFlfBTnIck6DDcWr"
                + "RszjNcE+qR6J+XxPRPqkeifl8T0T/9k="
        )!
    )

    @Test func theTwoEncodersPicturesDecodeAlike() throws {
        let baseline = try JPEGDecoder().decode(Self.baselineWithRestart)
        let progressive = try JPEGDecoder().decode(Self.progressive)
        #expect(baseline.width == 32 && baseline.height == 32)
        #expect(progressive.width == 32 && progressive.height == 32)
        let difference = Self.difference(Self.rgb(baseline), Self.rgb(progressive))
        // Two lossy encodings of one picture at different qualities.
        #expect(difference.mean < 8, "mean difference \(difference.mean)")
        #expect(try JPEGDecoder().decode(Self.progressive) == progressive, "decoding is deterministic")
        #expect(try ImageDecoder().decode(Self.progressive) == progressive, "ImageDecoder reads JPEG")
    }

    @Test func imageDecoderTellsFormatsApart() throws {
        let png = PNGImage(width: 2, height: 2, fill: (1, 2, 3, 255)).pngData()
        #expect(try ImageDecoder().decode(png).pixel(x: 1, y: 1) == (1, 2, 3, 255))
        do {
            _ = try ImageDecoder().decode(Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 20))
            Issue.record("a GIF was decoded")
        } catch {
            #expect(error.kind == .unsupported)
            #expect(error.detail.contains("neither a PNG nor a JPEG"))
        }
        do {
            _ = try ImageDecoder(maximumPixels: 100).decode(Self.progressive)
            Issue.record("the limit was ignored")
        } catch {
            #expect(error.kind == .tooLarge)
        }
    }

    // MARK: Against ffmpeg

    /// One encoding made with ffmpeg's MJPEG encoder.
    struct FFmpegCase: Sendable, CustomStringConvertible {
        var pixelFormat: String
        var width: Int
        var height: Int
        /// Slices, each ended by a restart marker.
        var slices = 1
        var description: String { "\(pixelFormat) \(width)×\(height)\(slices > 1 ? " \(slices) slices" : "")" }
    }

    static let ffmpegCases: [FFmpegCase] = [
        FFmpegCase(pixelFormat: "yuvj444p", width: 160, height: 90),
        FFmpegCase(pixelFormat: "yuvj422p", width: 160, height: 90),
        FFmpegCase(pixelFormat: "yuvj420p", width: 160, height: 90),
        FFmpegCase(pixelFormat: "yuvj420p", width: 150, height: 86, slices: 4),
        FFmpegCase(pixelFormat: "yuvj422p", width: 78, height: 46, slices: 2),
    ]

    /// ffmpeg, or `nil` after printing why the comparison cannot run.
    static func ffmpeg() -> String? {
        guard let path = RepositoryPaths.executableOnPath("ffmpeg") else {
            print("JPEGDecoderTests: ffmpeg is not installed; the comparisons with ffmpeg's decoder are skipped")
            return nil
        }
        return path
    }

    static func run(_ program: String, _ arguments: [String]) async throws {
        let result = try await runProgram(program, arguments, deadline: .seconds(120))
        try #require(result.status == 0, "\(program) \(arguments.joined(separator: " ")): \(result.output)")
    }

    /// ffmpeg's decode of `file` as packed RGB, or as the planes of `pixelFormat`. Colour
    /// conversion through swscale's accurate, full-chroma path: with its default fast path
    /// swscale repeats chroma samples, which no JPEG decoder is expected to match.
    static func ffmpegDecode(_ ffmpeg: String, _ file: URL, pixelFormat: String = "rgb24") async throws -> [UInt8] {
        let output = file.deletingPathExtension().appendingPathExtension(pixelFormat + ".raw")
        try await run(
            ffmpeg,
            [
                "-v", "error", "-y", "-i", file.path, "-sws_flags", "bicubic+full_chroma_int+accurate_rnd",
                "-f", "rawvideo", "-pix_fmt", pixelFormat, output.path,
            ]
        )
        return Array(try Data(contentsOf: output))
    }

    static func rgb(_ image: RGBAImage) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(image.width * image.height * 3)
        for index in 0..<(image.width * image.height) {
            bytes += image.pixels[(index * 4)..<(index * 4 + 3)]
        }
        return bytes
    }

    static func difference(_ a: [UInt8], _ b: [UInt8]) -> (mean: Double, p99: Int, max: Int) {
        precondition(a.count == b.count && !a.isEmpty)
        var histogram = [Int](repeating: 0, count: 256)
        var sum = 0
        for index in a.indices {
            let difference = abs(Int(a[index]) - Int(b[index]))
            histogram[difference] += 1
            sum += difference
        }
        var seen = 0
        var p99 = 0
        for (value, count) in histogram.enumerated() {
            seen += count
            if seen * 100 >= a.count * 99 {
                p99 = value
                break
            }
        }
        return (Double(sum) / Double(a.count), p99, histogram.lastIndex { $0 > 0 } ?? 0)
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jpeg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// ffmpeg's test pattern, blurred a little as photographs are, and the sharp one.
    static func sourceFilter(blurred: Bool) -> String { blurred ? "gblur=sigma=1.5" : "null" }

    @Test(arguments: ffmpegCases)
    func baselineFilesFromFFmpegMatchItsDecode(_ c: FFmpegCase) async throws {
        guard let ffmpeg = Self.ffmpeg() else { return }
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for blurred in [true, false] {
            let file = directory.appendingPathComponent("\(c.pixelFormat)-\(blurred ? "smooth" : "sharp").jpg")
            try await Self.run(
                ffmpeg,
                [
                    "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(c.width)x\(c.height)",
                    "-vf", Self.sourceFilter(blurred: blurred), "-frames:v", "1", "-c:v", "mjpeg", "-q:v", "3",
                    "-pix_fmt", c.pixelFormat, "-threads", "\(c.slices)", "-slices", "\(c.slices)", file.path,
                ]
            )
            let bytes = Array(try Data(contentsOf: file))
            if c.slices > 1 {
                #expect(Self.markers(in: bytes).contains(0xDD), "\(c): ffmpeg wrote a restart interval")
                #expect(Self.markers(in: bytes).contains(0xD0), "\(c): ffmpeg wrote a restart marker")
            }
            let image = try JPEGDecoder().decode(bytes)
            #expect(image.width == c.width && image.height == c.height, "\(c)")

            // The samples of each component before colour conversion: the IDCT and everything
            // before it, equal to ffmpeg's within the rounding of two IDCTs.
            try await Self.expectPlanesMatch(
                ffmpeg,
                file,
                bytes,
                pixelFormat: c.pixelFormat,
                "\(c) \(blurred ? "smooth" : "sharp")"
            )

            // The RGB picture: equal where every component is at full resolution; where chroma
            // is subsampled, how it is interpolated is the decoder's choice (T.81 leaves it
            // open), so a smooth picture is compared within a tolerance.
            let rgb = try await Self.ffmpegDecode(ffmpeg, file)
            let difference = Self.difference(Self.rgb(image), rgb)
            if c.pixelFormat == "yuvj444p" {
                #expect(difference.max <= 4, "\(c): \(difference)")
            } else if blurred {
                #expect(difference.mean <= 1.5 && difference.p99 <= 10, "\(c): \(difference)")
            }
        }
    }

    /// Compares the decoder's component planes with ffmpeg's decode of `file` in its native
    /// pixel format (no colour conversion on either side): within ±2, the rounding of two
    /// IDCTs.
    static func expectPlanesMatch(
        _ ffmpeg: String,
        _ file: URL,
        _ bytes: [UInt8],
        pixelFormat: String,
        _ label: String
    ) async throws {
        let planes = try JPEGDecoder().componentPlanes(bytes)
        let reference = try await ffmpegDecode(ffmpeg, file, pixelFormat: pixelFormat)
        var offset = 0
        for (index, plane) in planes.enumerated() {
            var samples: [UInt8] = []
            for y in 0..<plane.dataHeight {
                samples += plane.samples[(y * plane.width)..<(y * plane.width + plane.dataWidth)]
            }
            let expected = Array(reference[offset..<min(reference.count, offset + samples.count)])
            offset += samples.count
            try #require(expected.count == samples.count, "\(label): plane \(index) size")
            let difference = Self.difference(samples, expected)
            #expect(difference.max <= 2, "\(label): plane \(index) \(difference)")
        }
        #expect(offset == reference.count, "\(label): ffmpeg's planes hold \(reference.count) bytes")
    }

    /// One encoding made with libjpeg-turbo through Pillow.
    struct PillowCase: Sendable, CustomStringConvertible {
        var name: String
        /// ffmpeg's name for the file's planes.
        var pixelFormat: String
        /// Keyword arguments of Pillow's JPEG writer.
        var options: String
        var grey = false
        var progressive = true
        var restart = false
        var description: String { name }
    }

    static let pillowCases: [PillowCase] = [
        PillowCase(name: "progressive-444", pixelFormat: "yuvj444p", options: "progressive=True, subsampling=0"),
        PillowCase(name: "progressive-422", pixelFormat: "yuvj422p", options: "progressive=True, subsampling=1"),
        PillowCase(name: "progressive-420", pixelFormat: "yuvj420p", options: "progressive=True, subsampling=2"),
        PillowCase(name: "grey", pixelFormat: "gray", options: "", grey: true, progressive: false),
        PillowCase(name: "grey-progressive", pixelFormat: "gray", options: "progressive=True", grey: true),
        PillowCase(
            name: "progressive-420-restart",
            pixelFormat: "yuvj420p",
            options: "progressive=True, subsampling=2, restart_marker_blocks=3",
            restart: true
        ),
        PillowCase(
            name: "baseline-444-restart",
            pixelFormat: "yuvj444p",
            options: "subsampling=0, restart_marker_rows=1",
            progressive: false,
            restart: true
        ),
    ]

    @Test(arguments: pillowCases)
    func progressiveGreyAndRestartFilesMatchFFmpegsDecode(_ c: PillowCase) async throws {
        guard let ffmpeg = Self.ffmpeg() else { return }
        let python = RepositoryPaths.python
        guard FileManager.default.isExecutableFile(atPath: python),
            try await runProgram(python, ["-c", "import PIL"]).status == 0
        else {
            print(
                "JPEGDecoderTests: \(python) has no Pillow (scripts/test.sh installs it from scripts/requirements-interop.txt); \(c) skipped"
            )
            return
        }
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("source.png")
        try await Self.run(
            ffmpeg,
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x96", "-vf", "gblur=sigma=1.5",
                "-frames:v", "1", source.path,
            ]
        )
        let file = directory.appendingPathComponent("\(c.name).jpg")
        let mode = c.grey ? "L" : "RGB"
        try await Self.run(
            python,
            [
                "-c",
                // Cropped to an odd size, so the last MCUs are partly outside the picture.
                "import sys; from PIL import Image; Image.open(sys.argv[1]).crop((0, 0, 157, 93)).convert('\(mode)').save(sys.argv[2], 'JPEG', quality=90\(c.options.isEmpty ? "" : ", " + c.options))",
                source.path, file.path,
            ]
        )
        let bytes = Array(try Data(contentsOf: file))
        let markers = Self.markers(in: bytes)
        #expect(
            markers.contains(c.progressive ? 0xC2 : 0xC0),
            "\(c): the frame is \(c.progressive ? "progressive" : "baseline")"
        )
        if c.progressive { #expect(markers.filter { $0 == 0xDA }.count > 2, "\(c): several scans") }
        if c.restart { #expect(markers.contains(0xD0), "\(c): restart markers") }
        let image = try JPEGDecoder().decode(bytes)
        #expect(image.width == 157 && image.height == 93, "\(c)")
        try await Self.expectPlanesMatch(ffmpeg, file, bytes, pixelFormat: c.pixelFormat, "\(c)")
        let difference = Self.difference(Self.rgb(image), try await Self.ffmpegDecode(ffmpeg, file))
        if c.grey || c.name.contains("444") {
            #expect(difference.max <= 4, "\(c): \(difference)")
        } else {
            // At an odd size swscale scales chroma by 79→157 rather than 2, so its positions
            // drift from the JPEG ones; the planes above are the exact comparison.
            #expect(difference.mean <= 4, "\(c): \(difference)")
        }
    }

    /// The marker codes in a file, in order (entropy-coded data holds none: 0xFF is stuffed).
    static func markers(in bytes: [UInt8]) -> [UInt8] {
        var codes: [UInt8] = []
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == 0xFF, bytes[index + 1] != 0, bytes[index + 1] != 0xFF { codes.append(bytes[index + 1]) }
            index += 1
        }
        return codes
    }

    // MARK: Malformed input

    /// The offset of the first marker `code` in `bytes`.
    static func offset(of code: UInt8, in bytes: [UInt8]) -> Int? {
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == 0xFF, bytes[index + 1] == code { return index }
            index += 1
        }
        return nil
    }

    /// `bytes` with the segment of marker `code` replaced by `payload` (length rewritten).
    static func replacingSegment(_ code: UInt8, in bytes: [UInt8], with payload: [UInt8]) -> [UInt8] {
        guard let start = offset(of: code, in: bytes) else { return bytes }
        let length = Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
        var result = bytes
        result.replaceSubrange(
            start..<(start + 2 + length),
            with: [0xFF, code, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        )
        return result
    }

    /// The payload of the first segment of marker `code`.
    static func payload(_ code: UInt8, in bytes: [UInt8]) -> [UInt8] {
        guard let start = offset(of: code, in: bytes) else { return [] }
        let length = Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
        return Array(bytes[(start + 4)..<(start + 2 + length)])
    }

    static func expectError(
        _ bytes: [UInt8],
        _ kind: ImageDecodingError.Kind,
        mentions: String,
        decoder: JPEGDecoder = JPEGDecoder(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try decoder.decode(bytes)
            Issue.record("expected \(kind) mentioning \(mentions)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
            #expect(error.detail.contains(mentions), "\(error.detail)", sourceLocation: sourceLocation)
        }
    }

    @Test func everyTruncationIsAnErrorAndNeverACrash() throws {
        for sample in [Self.baselineWithRestart, Self.progressive] {
            let end = try #require(Self.offset(of: 0xD9, in: sample))
            let firstScan = try #require(Self.offset(of: 0xDA, in: sample))
            for length in 0..<sample.count {
                let prefix = Array(sample.prefix(length))
                do {
                    let image = try JPEGDecoder().decode(prefix)
                    // A file may lack its end-of-image marker; a progressive one cut between
                    // two scans shows the scans it has, as browsers show it while it loads;
                    // the last byte or two of a scan may hold only padding bits. Cut anywhere
                    // else, it does not decode.
                    // (A cut just after a marker's 0xFF is a cut at the marker.)
                    let nextMarker =
                        (max(0, length - 1)..<(sample.count - 1)).first {
                            sample[$0] == 0xFF && sample[$0 + 1] != 0 && sample[$0 + 1] != 0xFF
                        } ?? sample.count
                    #expect(
                        length >= end || (length > firstScan && nextMarker - length <= 2),
                        "a prefix of \(length) bytes decoded"
                    )
                    #expect(image.width == 32 && image.height == 32)
                } catch {
                    #expect(length < end, "\(length) bytes: \(error)")
                    #expect(error.kind == (length < 3 ? .unsupported : .corruptData), "\(length) bytes: \(error)")
                }
            }
        }
        // Cut inside the entropy-coded data: said so, not read past.
        let scan = try #require(Self.offset(of: 0xDA, in: Self.baselineWithRestart))
        Self.expectError(Array(Self.baselineWithRestart.prefix(scan + 40)), .corruptData, mentions: "cut short")
    }

    @Test func lyingSizesAndHugeImagesAreRefusedBeforeAllocating() {
        let sample = Self.baselineWithRestart
        var frame = Self.payload(0xC0, in: sample)
        // A segment length past the end of the file.
        var lying = sample
        let sof = Self.offset(of: 0xC0, in: sample)!
        lying[sof + 2] = 0x7F
        Self.expectError(lying, .corruptData, mentions: "past the end of the file")

        frame.replaceSubrange(1..<5, with: [0xFF, 0xFF, 0xFF, 0xFF])
        Self.expectError(
            Self.replacingSegment(0xC0, in: sample, with: frame),
            .tooLarge,
            mentions: "65535×65535 pixels exceed the limit"
        )
        // Thin images whose MCUs pad them to many times their pixels.
        var thin = Self.payload(0xC0, in: sample)
        thin.replaceSubrange(1..<5, with: [0xFF, 0xFF, 0x00, 0x01])
        thin[7] = 0x44
        Self.expectError(
            Self.replacingSegment(0xC0, in: sample, with: thin),
            .tooLarge,
            mentions: "in MCUs of 32×32",
            decoder: JPEGDecoder(maximumPixels: 1 << 16)
        )
        var zeroWidth = Self.payload(0xC0, in: sample)
        zeroWidth.replaceSubrange(3..<5, with: [0, 0])
        Self.expectError(Self.replacingSegment(0xC0, in: sample, with: zeroWidth), .corruptData, mentions: "width is 0")
        var laterHeight = Self.payload(0xC0, in: sample)
        laterHeight.replaceSubrange(1..<3, with: [0, 0])
        Self.expectError(Self.replacingSegment(0xC0, in: sample, with: laterHeight), .unsupported, mentions: "DNL")
        Self.expectError(
            Self.replacingSegment(0xC0, in: sample, with: Array(Self.payload(0xC0, in: sample).prefix(10))),
            .corruptData,
            mentions: "SOF of 10 bytes"
        )
    }

    @Test func badHuffmanTablesAndCodesAreCorruptData() {
        let sample = Self.baselineWithRestart
        // Three codes of one bit cannot exist.
        let overfull: [UInt8] = [0x00, 3] + [UInt8](repeating: 0, count: 15) + [0, 1, 2]
        Self.expectError(
            Self.replacingSegment(0xC4, in: sample, with: overfull),
            .corruptData,
            mentions: "more codes of 1 bits than fit"
        )
        let short: [UInt8] = [0x00, 0, 5] + [UInt8](repeating: 0, count: 14) + [0, 1]
        Self.expectError(
            Self.replacingSegment(0xC4, in: sample, with: short),
            .corruptData,
            mentions: "lists more symbols than it holds"
        )
        Self.expectError(
            Self.replacingSegment(0xC4, in: sample, with: [0x24] + [UInt8](repeating: 0, count: 16)),
            .corruptData,
            mentions: "defines table 2/4"
        )
        // A scan that selects tables nobody defined.
        var scan = Self.payload(0xDA, in: sample)
        scan[2] = 0x33
        Self.expectError(Self.replacingSegment(0xDA, in: sample, with: scan), .corruptData, mentions: "not defined")
        // Entropy-coded data of all ones is no code of ffmpeg's tables.
        var noise = sample
        let data = Self.offset(of: 0xDA, in: sample)! + 2 + Self.payload(0xDA, in: sample).count + 2
        for index in data..<(data + 60) { noise[index] = index % 2 == 0 ? 0xFF : 0x00 }
        do {
            _ = try JPEGDecoder().decode(noise)
            Issue.record("noise decoded")
        } catch {
            #expect(error.kind == .corruptData, "\(error)")
        }
        // The restart marker removed.
        var noRestart = sample
        let restart = Self.offset(of: 0xD0, in: sample)!
        noRestart.removeSubrange(restart..<(restart + 2))
        Self.expectError(noRestart, .corruptData, mentions: "restart marker RST0 missing")
        // A component's quantization table never defined.
        var frame = Self.payload(0xC0, in: sample)
        frame[8] = 3
        Self.expectError(
            Self.replacingSegment(0xC0, in: sample, with: frame),
            .corruptData,
            mentions: "quantization table 3"
        )
    }

    @Test func framesAndScansOutOfOrderOrUnsupported() {
        let sample = Self.baselineWithRestart
        var frame = Self.payload(0xC0, in: sample)
        frame[0] = 12
        Self.expectError(Self.replacingSegment(0xC0, in: sample, with: frame), .unsupported, mentions: "12-bit")
        var sampling = Self.payload(0xC0, in: sample)
        sampling[7] = 0x05
        Self.expectError(
            Self.replacingSegment(0xC0, in: sample, with: sampling),
            .corruptData,
            mentions: "sampling factors 0×5"
        )
        var duplicate = Self.payload(0xC0, in: sample)
        duplicate[9] = duplicate[6]
        Self.expectError(
            Self.replacingSegment(0xC0, in: sample, with: duplicate),
            .corruptData,
            mentions: "appears twice"
        )
        var cmyk = Self.payload(0xC0, in: sample)
        cmyk[5] = 4
        cmyk += [4, 0x11, 0]
        Self.expectError(Self.replacingSegment(0xC0, in: sample, with: cmyk), .unsupported, mentions: "4 components")
        for (code, name) in [(UInt8(0xC3), "lossless"), (0xC9, "arithmetic-coded"), (0xC5, "hierarchical")] {
            var other = sample
            other[Self.offset(of: 0xC0, in: sample)! + 1] = code
            Self.expectError(other, .unsupported, mentions: name)
        }
        // A scan before the frame, a second frame, a second SOI, no scan at all.
        let sof = Self.offset(of: 0xC0, in: sample)!
        let sos = Self.offset(of: 0xDA, in: sample)!
        let frameSegment = Array(sample[sof..<(sof + 2 + Self.payload(0xC0, in: sample).count + 2)])
        var scanFirst = sample
        scanFirst.removeSubrange(sof..<(sof + frameSegment.count))
        Self.expectError(scanFirst, .corruptData, mentions: "a scan before the frame header")
        var twoFrames = sample
        twoFrames.insert(contentsOf: frameSegment, at: sos)
        Self.expectError(twoFrames, .corruptData, mentions: "a second frame header")
        Self.expectError([0xFF, 0xD8, 0xFF, 0xD8, 0xFF, 0xD9], .corruptData, mentions: "a second SOI")
        Self.expectError(Array(sample.prefix(sos)) + [0xFF, 0xD9], .corruptData, mentions: "no scan")
        Self.expectError([0xFF, 0xD8, 0xFF, 0xD9], .corruptData, mentions: "no frame header")
        Self.expectError([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x02, 0x42], .corruptData, mentions: "a marker was expected")
        Self.expectError([0x89, 0x50, 0x4E, 0x47], .unsupported, mentions: "no SOI")
        // A component the frame does not have; a sequential scan of part of the spectrum.
        var unknown = Self.payload(0xDA, in: sample)
        unknown[1] = 9
        Self.expectError(Self.replacingSegment(0xDA, in: sample, with: unknown), .corruptData, mentions: "component 9")
        var partial = Self.payload(0xDA, in: sample)
        partial[partial.count - 3] = 1
        Self.expectError(
            Self.replacingSegment(0xDA, in: sample, with: partial),
            .corruptData,
            mentions: "sequential scan"
        )
        Self.expectError(
            Self.replacingSegment(0xDD, in: sample, with: [0, 0, 4]),
            .corruptData,
            mentions: "DRI of 3 bytes"
        )
        Self.expectError(
            Self.replacingSegment(0xDB, in: sample, with: [0x20] + [UInt8](repeating: 1, count: 64)),
            .corruptData,
            mentions: "precision 2"
        )
        // Progressive scans beyond the decoder's bound.
        Self.expectError(
            Self.progressive,
            .tooLarge,
            mentions: "more than 3 scans",
            decoder: JPEGDecoder(maximumScans: 3)
        )
    }

    @Test func randomDamageNeverCrashes() {
        var generator = SplitMix(seed: 0x5EED_1234)
        for sample in [Self.baselineWithRestart, Self.progressive] {
            for _ in 0..<1500 {
                var damaged = sample
                for _ in 0..<(1 + Int(generator.next() % 4)) {
                    let index = Int(generator.next() % UInt64(damaged.count))
                    damaged[index] = UInt8(truncatingIfNeeded: generator.next())
                }
                if let image = try? JPEGDecoder(maximumPixels: 1 << 16).decode(damaged) {
                    #expect(image.pixels.count == image.width * image.height * 4)
                    #expect(image.width * image.height <= 1 << 16)
                }
            }
        }
    }

    /// A small deterministic generator for the damage.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
