/// Writes RGBA pixels as a PNG with the virtual device's encoder (stored DEFLATE blocks).
import CastEmulator

enum PNGEncoder {
    static func encode(rgba: [UInt8], width: Int, height: Int) -> [UInt8] {
        var image = PNGImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 4
                image.setPixel(x: x, y: y, to: (rgba[offset], rgba[offset + 1], rgba[offset + 2], rgba[offset + 3]))
            }
        }
        return image.pngData()
    }
}
