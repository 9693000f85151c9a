/// Decodes JPEG images (ITU T.81 | ISO/IEC 10918-1, in the JFIF and Adobe containers) to
/// ``RGBAImage``, in Swift alone.
///
/// Read: baseline and extended sequential DCT (SOF0, SOF1) and progressive DCT (SOF2) with
/// Huffman coding, 8-bit samples; greyscale and three-component images (YCbCr, or RGB when an
/// Adobe APP14 segment says so); any sampling factors 1–4 (4:4:4, 4:2:2, 4:2:0, 4:1:1, …);
/// restart intervals; interleaved and non-interleaved scans. Not read (an
/// ``ImageDecodingError/Kind/unsupported`` error): lossless, hierarchical and arithmetic-coded
/// files, 12-bit samples, CMYK, and a height given after the first scan (DNL).
///
/// Hostile files end in an ``ImageDecodingError``: the size is checked against
/// ``maximumPixels`` before anything is allocated, every segment length against the file,
/// every table reference and Huffman code against the tables defined, entropy-coded data
/// cut short is reported rather than read past, and at most ``maximumScans`` scans are
/// decoded.
public struct JPEGDecoder: Sendable {
    /// The most pixels an image may have. Defaults to 16 megapixels.
    public var maximumPixels: Int
    /// The most scans decoded: each one walks the whole image. 128 by default; encoders
    /// write about ten for a progressive image.
    public var maximumScans: Int

    /// Creates a decoder.
    public init(maximumPixels: Int = 16 << 20, maximumScans: Int = 128) {
        self.maximumPixels = maximumPixels
        self.maximumScans = maximumScans
    }

    /// Whether `bytes` start as a JPEG file does (SOI followed by a marker).
    public static func isJPEG(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0xFF, 0xD8, 0xFF]) }

    /// What the segments before and between scans defined.
    private struct Tables {
        var dc = [JPEGHuffmanTable?](repeating: nil, count: 4)
        var ac = [JPEGHuffmanTable?](repeating: nil, count: 4)
        /// Quantization steps in natural order.
        var quantization = [[UInt16]?](repeating: nil, count: 4)
        var restartInterval = 0
        /// The Adobe APP14 colour transform: 0 RGB, 1 YCbCr; `nil` without the segment.
        var adobeTransform: Int?
        var sawJFIF = false
    }

    /// Decodes a JPEG.
    /// - Throws: ``ImageDecodingError``: ``ImageDecodingError/Kind/corruptData`` naming the
    ///   segment or byte at fault, ``ImageDecodingError/Kind/unsupported`` or
    ///   ``ImageDecodingError/Kind/tooLarge``.
    public func decode(_ bytes: [UInt8]) throws(ImageDecodingError) -> RGBAImage {
        let (frame, tables) = try decodeCoefficients(bytes)
        return try output(frame, tables: tables)
    }

    /// The decoded samples of each component, before upsampling and colour conversion.
    func componentPlanes(_ bytes: [UInt8]) throws(ImageDecodingError) -> [JPEGColorConversion.Plane] {
        let (frame, tables) = try decodeCoefficients(bytes)
        return try planes(frame, tables: tables)
    }

    /// Reads every segment and decodes every scan.
    private func decodeCoefficients(_ bytes: [UInt8]) throws(ImageDecodingError) -> (JPEGFrame, Tables) {
        guard Self.isJPEG(bytes) else { throw ImageDecodingError(.unsupported, "not a JPEG (no SOI marker)") }
        var tables = Tables()
        var frame: JPEGFrame?
        var scans = 0
        var position = 2
        var sawEnd = false
        while !sawEnd {
            // Markers may be preceded by any number of 0xFF fill bytes (B.1.1.2).
            guard position < bytes.count else { break }
            guard bytes[position] == 0xFF else {
                throw ImageDecodingError(.corruptData, "a marker was expected at byte \(position)")
            }
            while position < bytes.count, bytes[position] == 0xFF { position += 1 }
            guard position < bytes.count else { break }
            let marker = bytes[position]
            let markerStart = position - 1
            position += 1
            switch marker {
            case 0xD9:
                sawEnd = true
                continue
            case 0xD0...0xD7, 0x01:
                // A stray restart marker or TEM carries no segment.
                continue
            case 0xD8:
                throw ImageDecodingError(.corruptData, "a second SOI marker at byte \(markerStart)")
            default:
                break
            }
            guard position + 2 <= bytes.count else {
                throw ImageDecodingError(
                    .corruptData,
                    "the file ends in the length of the segment at byte \(markerStart)"
                )
            }
            let length = Int(bytes[position]) << 8 | Int(bytes[position + 1])
            guard length >= 2, position + length <= bytes.count else {
                throw ImageDecodingError(
                    .corruptData,
                    "the segment at byte \(markerStart) (marker \(Self.hex(marker))) is \(length) bytes long, past the end of the file"
                )
            }
            let payload = bytes[(position + 2)..<(position + length)]
            position += length
            switch marker {
            case 0xC0, 0xC1, 0xC2:
                guard frame == nil else {
                    throw ImageDecodingError(.corruptData, "a second frame header at byte \(markerStart)")
                }
                frame = try JPEGFrame(
                    segment: payload,
                    coding: marker == 0xC2 ? .progressive : .sequential,
                    maximumPixels: maximumPixels
                )
            case 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                throw ImageDecodingError(
                    .unsupported,
                    "\(Self.frameKind(marker)) JPEG (only baseline, extended and progressive Huffman-coded DCT are decoded)"
                )
            case 0xC4:
                try Self.readHuffmanTables(payload, into: &tables, at: markerStart)
            case 0xCC:
                throw ImageDecodingError(.unsupported, "arithmetic coding conditioning (DAC)")
            case 0xDB:
                try Self.readQuantizationTables(payload, into: &tables, at: markerStart)
            case 0xDD:
                guard payload.count == 2 else {
                    throw ImageDecodingError(.corruptData, "DRI of \(payload.count) bytes at byte \(markerStart)")
                }
                tables.restartInterval = Int(payload[payload.startIndex]) << 8 | Int(payload[payload.startIndex + 1])
            case 0xDC:
                throw ImageDecodingError(.unsupported, "a height defined after the first scan (DNL)")
            case 0xE0:
                if payload.starts(with: Array("JFIF\0".utf8)) { tables.sawJFIF = true }
            case 0xEE:
                if payload.count >= 12, payload.starts(with: Array("Adobe".utf8)) {
                    tables.adobeTransform = Int(payload[payload.startIndex + 11])
                }
            case 0xDA:
                guard var current = frame else {
                    throw ImageDecodingError(.corruptData, "a scan before the frame header at byte \(markerStart)")
                }
                scans += 1
                guard scans <= maximumScans else {
                    throw ImageDecodingError(.tooLarge, "more than \(maximumScans) scans")
                }
                let scan = try JPEGScan(segment: payload, frame: current)
                // Each component dequantizes with the table in force at its first scan.
                for member in scan.members where current.components[member.component].quantization == nil {
                    current.components[member.component].quantization =
                        tables.quantization[current.components[member.component].quantizationTable]
                }
                frame = nil
                let end = try bytes.withUnsafeBufferPointer { (buffer) throws(ImageDecodingError) -> Int in
                    try current.decode(
                        scan,
                        bytes: buffer,
                        start: position,
                        dcTables: tables.dc,
                        acTables: tables.ac,
                        restartInterval: tables.restartInterval
                    )
                }
                frame = current
                position = end
            default:
                // APPn, COM and other segments are skipped.
                break
            }
        }
        guard let frame else { throw ImageDecodingError(.corruptData, "no frame header (SOF)") }
        guard scans > 0 else { throw ImageDecodingError(.corruptData, "no scan (SOS)") }
        return (frame, tables)
    }

    // MARK: Segments

    private static func readHuffmanTables(
        _ payload: ArraySlice<UInt8>,
        into tables: inout Tables,
        at offset: Int
    ) throws(ImageDecodingError) {
        var index = payload.startIndex
        while index < payload.endIndex {
            guard index + 17 <= payload.endIndex else {
                throw ImageDecodingError(.corruptData, "DHT at byte \(offset) ends inside a table")
            }
            let kind = Int(payload[index] >> 4)
            let id = Int(payload[index] & 0x0F)
            guard kind <= 1, id < 4 else {
                throw ImageDecodingError(.corruptData, "DHT at byte \(offset) defines table \(kind)/\(id)")
            }
            let counts = Array(payload[(index + 1)..<(index + 17)])
            let total = counts.reduce(0) { $0 + Int($1) }
            guard index + 17 + total <= payload.endIndex else {
                throw ImageDecodingError(.corruptData, "DHT at byte \(offset) lists more symbols than it holds")
            }
            let table = try JPEGHuffmanTable(
                counts: counts,
                values: Array(payload[(index + 17)..<(index + 17 + total)])
            )
            if kind == 0 { tables.dc[id] = table } else { tables.ac[id] = table }
            index += 17 + total
        }
    }

    private static func readQuantizationTables(
        _ payload: ArraySlice<UInt8>,
        into tables: inout Tables,
        at offset: Int
    ) throws(ImageDecodingError) {
        var index = payload.startIndex
        while index < payload.endIndex {
            let precision = Int(payload[index] >> 4)
            let id = Int(payload[index] & 0x0F)
            guard precision <= 1, id < 4 else {
                throw ImageDecodingError(
                    .corruptData,
                    "DQT at byte \(offset) defines table \(id) of precision \(precision)"
                )
            }
            let size = precision == 0 ? 64 : 128
            guard index + 1 + size <= payload.endIndex else {
                throw ImageDecodingError(.corruptData, "DQT at byte \(offset) ends inside a table")
            }
            var steps = [UInt16](repeating: 0, count: 64)
            for k in 0..<64 {
                let value =
                    precision == 0
                    ? UInt16(payload[index + 1 + k])
                    : UInt16(payload[index + 1 + 2 * k]) << 8 | UInt16(payload[index + 2 + 2 * k])
                // Tables are stored in zig-zag order.
                steps[jpegZigZag[k]] = value
            }
            tables.quantization[id] = steps
            index += 1 + size
        }
    }

    // MARK: Output

    private func output(_ frame: JPEGFrame, tables: Tables) throws(ImageDecodingError) -> RGBAImage {
        let planes = try planes(frame, tables: tables)
        // Three components are YCbCr unless an Adobe segment says RGB or, without JFIF or
        // Adobe segments, the component ids spell R, G, B.
        let ids = frame.components.map(\.id)
        let transform: Bool
        if let adobe = tables.adobeTransform {
            transform = adobe != 0
        } else {
            transform = tables.sawJFIF || ids != [0x52, 0x47, 0x42]
        }
        let pixels = JPEGColorConversion.rgba(
            planes: planes,
            width: frame.width,
            height: frame.height,
            maxHorizontal: frame.maxHorizontal,
            maxVertical: frame.maxVertical,
            transform: transform
        )
        guard let image = RGBAImage(width: frame.width, height: frame.height, pixels: pixels) else {
            throw ImageDecodingError(.tooLarge, "\(frame.width)×\(frame.height) pixels")
        }
        return image
    }

    /// Dequantizes and inverse-transforms every block of every component.
    private func planes(_ frame: JPEGFrame, tables: Tables) throws(ImageDecodingError) -> [JPEGColorConversion.Plane] {
        var frame = frame
        var planes: [JPEGColorConversion.Plane] = []
        var workspace = [Float](repeating: 0, count: 72)
        for component in frame.components {
            guard let steps = component.quantization ?? tables.quantization[component.quantizationTable] else {
                throw ImageDecodingError(
                    .corruptData,
                    "component \(component.id) uses quantization table \(component.quantizationTable), not defined"
                )
            }
            let width = component.blocksPerLine * 8
            let height = component.blocksPerColumn * 8
            var samples = [UInt8](repeating: 0, count: width * height)
            samples.withUnsafeMutableBufferPointer { output in
                frame.coefficients.withUnsafeMutableBufferPointer { coefficients in
                    steps.withUnsafeBufferPointer { quantization in
                        workspace.withUnsafeMutableBufferPointer { workspace in
                            for blockRow in 0..<component.blocksPerColumn {
                                for blockColumn in 0..<component.blocksPerLine {
                                    let offset =
                                        component.coefficientOffset
                                        + (blockRow * component.blocksPerLine + blockColumn) * 64
                                    JPEGInverseDCT.transform(
                                        UnsafeMutableBufferPointer(rebasing: coefficients[offset..<(offset + 64)]),
                                        quantization: quantization,
                                        into: output.baseAddress! + blockRow * 8 * width + blockColumn * 8,
                                        stride: width,
                                        workspace: workspace
                                    )
                                }
                            }
                        }
                    }
                }
            }
            planes.append(
                JPEGColorConversion.Plane(
                    samples: samples,
                    width: width,
                    height: height,
                    dataWidth: min(
                        width,
                        (frame.width * component.horizontal + frame.maxHorizontal - 1) / frame.maxHorizontal
                    ),
                    dataHeight: min(
                        height,
                        (frame.height * component.vertical + frame.maxVertical - 1) / frame.maxVertical
                    ),
                    horizontal: component.horizontal,
                    vertical: component.vertical
                )
            )
        }
        return planes
    }

    private static func frameKind(_ marker: UInt8) -> String {
        switch marker {
        case 0xC3: "lossless"
        case 0xC5, 0xC6, 0xC7: "hierarchical"
        case 0xC9, 0xCA: "arithmetic-coded"
        default: "hierarchical arithmetic-coded"
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0xFF\(digits[Int(byte >> 4)])\(digits[Int(byte & 0x0F)])"
    }
}
