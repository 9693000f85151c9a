/// A picture to show in the terminal: 8-bit red, green, blue and alpha per pixel, rows top to
/// bottom. The ``identity`` names what it shows (the app's choice, such as a hash of an image
/// URL), so that a renderer can tell the same picture from a new one without comparing pixels.
public struct Picture: Sendable, Hashable {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// `width × height × 4` bytes.
    public let pixels: [UInt8]
    /// What the picture shows; equal identities and sizes mean equal pixels.
    public let identity: UInt64

    /// Creates a picture; `pixels` must hold `width × height × 4` bytes.
    public init?(width: Int, height: Int, pixels: [UInt8], identity: UInt64) {
        guard width > 0, height > 0, !width.multipliedReportingOverflow(by: height).overflow,
            !(width * height).multipliedReportingOverflow(by: 4).overflow, pixels.count == width * height * 4
        else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
        self.identity = identity
    }

    public static func == (lhs: Picture, rhs: Picture) -> Bool {
        lhs.identity == rhs.identity && lhs.width == rhs.width && lhs.height == rhs.height
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
        hasher.combine(width)
        hasher.combine(height)
    }

    /// The average colour of the pixels in [`x0`, `x1`) × [`y0`, `y1`) (at least one pixel),
    /// each blended over `background` by its alpha.
    public func averageColor(
        x0: Int,
        y0: Int,
        x1: Int,
        y1: Int,
        over background: (red: UInt8, green: UInt8, blue: UInt8) = (0, 0, 0)
    ) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let left = min(max(x0, 0), width - 1)
        let top = min(max(y0, 0), height - 1)
        let right = min(max(x1, left + 1), width)
        let bottom = min(max(y1, top + 1), height)
        var sums = (0, 0, 0)
        var count = 0
        pixels.withUnsafeBufferPointer { pixels in
            for row in top..<bottom {
                for column in left..<right {
                    let offset = (row * width + column) * 4
                    let alpha = Int(pixels[offset + 3])
                    sums.0 += (Int(pixels[offset]) * alpha + Int(background.red) * (255 - alpha)) / 255
                    sums.1 += (Int(pixels[offset + 1]) * alpha + Int(background.green) * (255 - alpha)) / 255
                    sums.2 += (Int(pixels[offset + 2]) * alpha + Int(background.blue) * (255 - alpha)) / 255
                    count += 1
                }
            }
        }
        return (UInt8(sums.0 / count), UInt8(sums.1 / count), UInt8(sums.2 / count))
    }

    /// The picture resampled to `width` × `height` (each new pixel the average of the pixels
    /// it covers), over `background` where it is transparent.
    public func resized(
        width newWidth: Int,
        height newHeight: Int,
        over background: (red: UInt8, green: UInt8, blue: UInt8) = (0, 0, 0)
    ) -> Picture {
        let targetWidth = max(1, newWidth)
        let targetHeight = max(1, newHeight)
        var output = [UInt8](repeating: 255, count: targetWidth * targetHeight * 4)
        for y in 0..<targetHeight {
            let y0 = y * height / targetHeight
            let y1 = (y + 1) * height / targetHeight
            for x in 0..<targetWidth {
                let color = averageColor(
                    x0: x * width / targetWidth,
                    y0: y0,
                    x1: (x + 1) * width / targetWidth,
                    y1: y1,
                    over: background
                )
                let offset = (y * targetWidth + x) * 4
                output[offset] = color.red
                output[offset + 1] = color.green
                output[offset + 2] = color.blue
            }
        }
        // The pixels come from this picture at this size, so the pair names them.
        return Picture(width: targetWidth, height: targetHeight, pixels: output, identity: identity)!
    }

    /// The largest size with the picture's aspect ratio that fits `width` × `height` pixels.
    public func fittedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        guard width > 0, height > 0 else { return (0, 0) }
        let scale = min(Double(width) / Double(self.width), Double(height) / Double(self.height))
        return (
            max(1, min(width, Int((Double(self.width) * scale).rounded()))),
            max(1, min(height, Int((Double(self.height) * scale).rounded())))
        )
    }
}
