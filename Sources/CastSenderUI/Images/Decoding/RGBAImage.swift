/// A decoded image: 8-bit red, green, blue and alpha per pixel, rows top to bottom.
public struct RGBAImage: Sendable, Hashable {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// `width × height × 4` bytes.
    public let pixels: [UInt8]

    /// Creates an image; `pixels` must hold `width × height × 4` bytes.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height).overflow == false,
            (width * height).multipliedReportingOverflow(by: 4).overflow == false, pixels.count == width * height * 4
        else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at (`x`, `y`), clamped to the image.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let column = min(max(x, 0), width - 1)
        let row = min(max(y, 0), height - 1)
        let offset = (row * width + column) * 4
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
    }

    /// The average colour of the pixels in [`x0`, `x1`) × [`y0`, `y1`) (at least one pixel),
    /// alpha-weighted over `background`.
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
        return (UInt8(sums.0 / count), UInt8(sums.1 / count), UInt8(sums.2 / count))
    }

    // Pixels are compared only when the sizes match; the hash covers the size and a few
    // samples, which equal images share.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(height)
        for index in stride(from: 0, to: pixels.count, by: max(4, pixels.count / 16)) { hasher.combine(pixels[index]) }
    }
}
