import CastEmulator

/// PNGs as the virtual device draws its icon (stored DEFLATE blocks), of two sizes; the
/// fuzzer's mutations reach the other block types from there.
enum PNGSeeds {
    static func seeds() -> SeedSet {
        var set = SeedSet(target: "png")
        set.add("one-pixel", PNGImage(width: 1, height: 1, fill: (255, 0, 0, 255)).pngData())
        var gradient = PNGImage(width: 16, height: 8)
        for y in 0..<8 {
            for x in 0..<16 { gradient.setPixel(x: x, y: y, to: (UInt8(x * 16), UInt8(y * 32), 128, 255)) }
        }
        set.add("gradient", gradient.pngData())
        return set
    }
}
