/// The frame of a JPEG image (its SOF segment) and the quantized DCT coefficients of every
/// component, filled in by the scans.
struct JPEGFrame {
    /// How the coefficients are coded.
    enum Coding: Sendable, Equatable {
        /// Baseline or extended sequential DCT, Huffman-coded (SOF0, SOF1).
        case sequential
        /// Progressive DCT, Huffman-coded (SOF2).
        case progressive
    }

    /// One colour component.
    struct Component {
        /// The component identifier scans refer to.
        var id: UInt8
        /// Horizontal and vertical sampling factors, 1...4.
        var horizontal: Int
        var vertical: Int
        /// The quantization table selector, 0...3.
        var quantizationTable: Int
        /// The blocks of this component across and down, padded to whole MCUs.
        var blocksPerLine: Int
        var blocksPerColumn: Int
        /// The blocks that hold image data (the rest is MCU padding), across and down.
        var dataBlocksPerLine: Int
        var dataBlocksPerColumn: Int
        /// Where the component's blocks start in ``JPEGFrame/coefficients``.
        var coefficientOffset: Int
        /// The quantization table in force when the component's first scan began.
        var quantization: [UInt16]?
        /// The DC prediction of the scan in progress.
        var dcPrediction: Int32 = 0
    }

    var coding: Coding
    var width: Int
    var height: Int
    var components: [Component]
    /// 64 coefficients per block, in natural (row-major) order, blocks row by row, the
    /// components one after the other.
    var coefficients: [Int16]
    var maxHorizontal: Int
    var maxVertical: Int
    /// MCUs across and down in an interleaved scan.
    var mcusPerLine: Int
    var mcusPerColumn: Int

    /// Reads a SOF segment's payload.
    /// - Throws: ``ImageDecodingError`` for a precision other than 8 bits, a size of zero, a
    ///   size over `maximumPixels`, bad sampling factors or duplicate component ids.
    init(segment: ArraySlice<UInt8>, coding: Coding, maximumPixels: Int) throws(ImageDecodingError) {
        let data = Array(segment)
        guard data.count >= 6 else { throw ImageDecodingError(.corruptData, "SOF holds \(data.count) bytes") }
        guard data[0] == 8 else {
            throw ImageDecodingError(.unsupported, "\(data[0])-bit samples (only 8-bit JPEG is decoded)")
        }
        height = Int(data[1]) << 8 | Int(data[2])
        width = Int(data[3]) << 8 | Int(data[4])
        guard width > 0 else { throw ImageDecodingError(.corruptData, "SOF width is 0") }
        guard height > 0 else {
            throw ImageDecodingError(.unsupported, "the height is defined later (DNL), which is not decoded")
        }
        guard width * height <= maximumPixels else {
            throw ImageDecodingError(.tooLarge, "\(width)×\(height) pixels exceed the limit of \(maximumPixels)")
        }
        let count = Int(data[5])
        guard count == 1 || count == 3 else {
            throw ImageDecodingError(
                .unsupported,
                "\(count) components (only greyscale and three-component colour are decoded)"
            )
        }
        guard data.count == 6 + count * 3 else {
            throw ImageDecodingError(.corruptData, "SOF of \(data.count) bytes for \(count) components")
        }
        self.coding = coding
        var components: [Component] = []
        for index in 0..<count {
            let base = 6 + index * 3
            let id = data[base]
            let horizontal = Int(data[base + 1] >> 4)
            let vertical = Int(data[base + 1] & 0x0F)
            let table = Int(data[base + 2])
            guard (1...4).contains(horizontal), (1...4).contains(vertical) else {
                throw ImageDecodingError(.corruptData, "component \(id) has sampling factors \(horizontal)×\(vertical)")
            }
            guard table < 4 else {
                throw ImageDecodingError(.corruptData, "component \(id) uses quantization table \(table)")
            }
            guard !components.contains(where: { $0.id == id }) else {
                throw ImageDecodingError(.corruptData, "component id \(id) appears twice in SOF")
            }
            components.append(
                Component(
                    id: id,
                    horizontal: horizontal,
                    vertical: vertical,
                    quantizationTable: table,
                    blocksPerLine: 0,
                    blocksPerColumn: 0,
                    dataBlocksPerLine: 0,
                    dataBlocksPerColumn: 0,
                    coefficientOffset: 0
                )
            )
        }
        maxHorizontal = components.map(\.horizontal).max() ?? 1
        maxVertical = components.map(\.vertical).max() ?? 1
        mcusPerLine = (width + 8 * maxHorizontal - 1) / (8 * maxHorizontal)
        mcusPerColumn = (height + 8 * maxVertical - 1) / (8 * maxVertical)
        // Every component's blocks are padded to whole MCUs (A.2.4); a thin image with large
        // sampling factors pads to many times its own pixels, so the padded size is what
        // the limit bounds (at most twice the limit plus a megapixel).
        let paddedPixels = mcusPerLine * 8 * maxHorizontal * mcusPerColumn * 8 * maxVertical
        guard paddedPixels <= 2 * maximumPixels + (1 << 20) else {
            throw ImageDecodingError(
                .tooLarge,
                "\(width)×\(height) pixels in MCUs of \(8 * maxHorizontal)×\(8 * maxVertical) exceed the limit of \(maximumPixels)"
            )
        }
        var total = 0
        for index in components.indices {
            let horizontal = components[index].horizontal
            let vertical = components[index].vertical
            let componentWidth = (width * horizontal + maxHorizontal - 1) / maxHorizontal
            let componentHeight = (height * vertical + maxVertical - 1) / maxVertical
            components[index].dataBlocksPerLine = (componentWidth + 7) / 8
            components[index].dataBlocksPerColumn = (componentHeight + 7) / 8
            components[index].blocksPerLine = mcusPerLine * horizontal
            components[index].blocksPerColumn = mcusPerColumn * vertical
            components[index].coefficientOffset = total
            total += components[index].blocksPerLine * components[index].blocksPerColumn * 64
        }
        self.components = components
        coefficients = [Int16](repeating: 0, count: total)
    }
}

/// The order in which a block's 64 coefficients are coded (ITU T.81, figure A.6): the
/// natural (row-major) index of each position of the zig-zag sequence.
let jpegZigZag: [Int] = [
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21,
    28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61,
    54, 47, 55, 62, 63,
]
