/// Turns a JPEG's decoded component planes into RGBA pixels: components sampled at a lower
/// resolution are interpolated bilinearly between their sample centres (for 2:1, the
/// ¾ · near + ¼ · far "fancy upsampling" of common decoders), then YCbCr is converted to RGB
/// as JFIF defines it (full range, BT.601 coefficients).
enum JPEGColorConversion {
    /// One decoded component: its samples and how its resolution relates to the image's.
    struct Plane {
        var samples: [UInt8]
        /// The plane's row length and rows (whole blocks).
        var width: Int
        var height: Int
        /// The columns and rows that hold image data; the rest pads the last blocks.
        var dataWidth: Int
        var dataHeight: Int
        var horizontal: Int
        var vertical: Int
    }

    /// For each output coordinate: the two sample indexes to blend and the weight of the
    /// second, in 1/256.
    private struct Taps {
        var first: [Int]
        var second: [Int]
        var weight: [Int]

        init(outputs: Int, factor: Int, maximum: Int, samples: Int) {
            first = []
            second = []
            weight = []
            first.reserveCapacity(outputs)
            second.reserveCapacity(outputs)
            weight.reserveCapacity(outputs)
            for x in 0..<outputs {
                // The sample coordinate of the output pixel's centre: (x + ½) · factor / max − ½,
                // in 1/256 units.
                let position = ((2 * x + 1) * factor * 128) / maximum - 128
                let clamped = max(0, position)
                let index = min(clamped >> 8, samples - 1)
                first.append(index)
                second.append(min(index + 1, samples - 1))
                weight.append(position <= 0 ? 0 : clamped & 0xFF)
            }
        }
    }

    /// The RGBA pixels of a `width` × `height` image.
    /// - Parameters:
    ///   - planes: one plane (greyscale) or three.
    ///   - maxHorizontal: the largest horizontal sampling factor.
    ///   - maxVertical: the largest vertical sampling factor.
    ///   - transform: whether three planes are Y, Cb, Cr (else R, G, B).
    static func rgba(
        planes: [Plane],
        width: Int,
        height: Int,
        maxHorizontal: Int,
        maxVertical: Int,
        transform: Bool
    ) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        let columns = planes.map {
            Taps(outputs: width, factor: $0.horizontal, maximum: maxHorizontal, samples: $0.dataWidth)
        }
        let rows = planes.map {
            Taps(outputs: height, factor: $0.vertical, maximum: maxVertical, samples: $0.dataHeight)
        }
        var values = [Int](repeating: 0, count: planes.count)
        pixels.withUnsafeMutableBufferPointer { output in
            for y in 0..<height {
                for x in 0..<width {
                    for index in planes.indices {
                        values[index] = sample(planes[index], column: columns[index], row: rows[index], x: x, y: y)
                    }
                    let target = (y * width + x) * 4
                    if planes.count == 1 {
                        let grey = UInt8(values[0])
                        output[target] = grey
                        output[target + 1] = grey
                        output[target + 2] = grey
                    } else if transform {
                        let (red, green, blue) = rgb(y: values[0], cb: values[1], cr: values[2])
                        output[target] = red
                        output[target + 1] = green
                        output[target + 2] = blue
                    } else {
                        output[target] = UInt8(values[0])
                        output[target + 1] = UInt8(values[1])
                        output[target + 2] = UInt8(values[2])
                    }
                }
            }
        }
        return pixels
    }

    @inline(__always)
    private static func sample(_ plane: Plane, column: Taps, row: Taps, x: Int, y: Int) -> Int {
        let x0 = column.first[x]
        let x1 = column.second[x]
        let wx = column.weight[x]
        let y0 = row.first[y]
        let y1 = row.second[y]
        let wy = row.weight[y]
        let top =
            Int(plane.samples[y0 * plane.width + x0]) * (256 - wx) + Int(plane.samples[y0 * plane.width + x1]) * wx
        if wy == 0 { return (top + 128) >> 8 }
        let bottom =
            Int(plane.samples[y1 * plane.width + x0]) * (256 - wx) + Int(plane.samples[y1 * plane.width + x1]) * wx
        return (top * (256 - wy) + bottom * wy + 32_768) >> 16
    }

    /// JFIF's YCbCr to RGB, in 16.16 fixed point, rounded and clamped.
    @inline(__always)
    static func rgb(y: Int, cb: Int, cr: Int) -> (UInt8, UInt8, UInt8) {
        let luma = y << 16 + 32_768
        let blueDifference = cb - 128
        let redDifference = cr - 128
        let red = (luma + 91_881 * redDifference) >> 16
        let green = (luma - 22_554 * blueDifference - 46_802 * redDifference) >> 16
        let blue = (luma + 116_130 * blueDifference) >> 16
        return (clamp(red), clamp(green), clamp(blue))
    }

    @inline(__always)
    private static func clamp(_ value: Int) -> UInt8 { value <= 0 ? 0 : (value >= 255 ? 255 : UInt8(value)) }
}
