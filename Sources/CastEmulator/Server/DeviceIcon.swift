/// The icon a virtual device serves at `/setup/icon.png`: a rounded screen with the Cast
/// waves in its lower-left corner, drawn in code.
enum DeviceIcon {
    /// The 48×48 icon every device serves, drawn once per process (each copy would cost a
    /// fleet of 10,000 devices 180 MiB on two ports).
    static let standardPNG = png()

    /// The PNG bytes of a `size`×`size` icon.
    static func png(size: Int = 48) -> [UInt8] {
        image(size: size).pngData()
    }

    static func image(size: Int) -> PNGImage {
        let background: (UInt8, UInt8, UInt8, UInt8) = (0x1A, 0x73, 0xE8, 0xFF)
        let white: (UInt8, UInt8, UInt8, UInt8) = (0xFF, 0xFF, 0xFF, 0xFF)
        var image = PNGImage(width: size, height: size)
        let scale = Double(size)
        let radius = scale * 0.18
        for y in 0..<size {
            for x in 0..<size {
                let px = Double(x) + 0.5
                let py = Double(y) + 0.5
                // Rounded square background.
                let cx = min(max(px, radius), scale - radius)
                let cy = min(max(py, radius), scale - radius)
                let inside = (px - cx) * (px - cx) + (py - cy) * (py - cy) <= radius * radius
                guard inside else { continue }
                image.setPixel(x: x, y: y, to: background)
                // Cast waves: quarter rings centred on the lower-left corner of the screen area.
                let ox = scale * 0.2
                let oy = scale * 0.8
                let dx = px - ox
                let dy = oy - py
                guard dx >= 0, dy >= 0 else { continue }
                let distance = (dx * dx + dy * dy).squareRoot()
                let ringWidth = scale * 0.07
                let isDot = distance <= scale * 0.1
                let isRing = [0.25, 0.42].contains { abs(distance - scale * $0) <= ringWidth / 2 }
                if isDot || isRing { image.setPixel(x: x, y: y, to: white) }
            }
        }
        return image
    }
}
