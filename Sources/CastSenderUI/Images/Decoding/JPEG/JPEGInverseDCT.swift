import Foundation

/// The inverse DCT of ITU T.81 (A.3.3) on dequantized 8 × 8 blocks, computed separably (rows,
/// then columns) from a table of the cosine terms, with the level shift of 128 and clamping
/// to 0...255.
enum JPEGInverseDCT {
    /// `table[x * 8 + u]` = C(u) · cos((2x + 1)uπ / 16) / 2, C(0) = 1/√2, else 1.
    private static let table: [Float] = (0..<64).map { index in
        let x = Double(index / 8)
        let u = Double(index % 8)
        let scale: Double = u == 0 ? 1 / 2.0.squareRoot() : 1
        let angle: Double = (2 * x + 1) * u * Double.pi / 16
        return Float(scale * cos(angle) / 2)
    }

    /// Writes the samples of one block into `output`, 8 rows of `stride` bytes.
    /// - Parameters:
    ///   - coefficients: 64 quantized coefficients in natural order.
    ///   - quantization: 64 quantization steps in natural order.
    static func transform(
        _ coefficients: UnsafeMutableBufferPointer<Int16>,
        quantization: UnsafeBufferPointer<UInt16>,
        into output: UnsafeMutablePointer<UInt8>,
        stride: Int,
        workspace: UnsafeMutableBufferPointer<Float>
    ) {
        // `workspace` holds 72 values: the 64 of the row pass and one row of input.
        // A block with only its DC coefficient (common in smooth areas) is flat.
        var acZero = true
        for index in 1..<64 where coefficients[index] != 0 {
            acZero = false
            break
        }
        if acZero {
            let value = Float(Int32(coefficients[0]) * Int32(quantization[0])) / 8 + 128
            let sample = clamp(value)
            for y in 0..<8 {
                let row = output + y * stride
                for x in 0..<8 { row[x] = sample }
            }
            return
        }
        table.withUnsafeBufferPointer { cosines in
            // Rows: workspace[v * 8 + x] = Σu C(u) F(v, u) cos(...) / 2.
            for v in 0..<8 {
                var any = false
                for u in 0..<8 {
                    let value = Float(Int32(coefficients[v * 8 + u]) * Int32(quantization[v * 8 + u]))
                    workspace[64 + u] = value
                    if value != 0 { any = true }
                }
                for x in 0..<8 {
                    guard any else {
                        workspace[v * 8 + x] = 0
                        continue
                    }
                    var sum: Float = 0
                    for u in 0..<8 { sum += cosines[x * 8 + u] * workspace[64 + u] }
                    workspace[v * 8 + x] = sum
                }
            }
            // Columns: f(y, x) = Σv C(v) w(v, x) cos(...) / 2.
            for x in 0..<8 {
                for y in 0..<8 {
                    var sum: Float = 0
                    for v in 0..<8 { sum += cosines[y * 8 + v] * workspace[v * 8 + x] }
                    output[y * stride + x] = clamp(sum + 128)
                }
            }
        }
    }

    @inline(__always)
    private static func clamp(_ value: Float) -> UInt8 {
        guard value.isFinite else { return 0 }
        let rounded = (value + 0.5).rounded(.down)
        return rounded <= 0 ? 0 : (rounded >= 255 ? 255 : UInt8(rounded))
    }
}
