import Foundation

/// The built-in catalog's pictures, drawn by the app: for each video a landscape of its own
/// (a sky in the video's colours, a sun or a moon, stars at night, hills or waves in layers
/// and their reflection on water), the same for the same title, at any size.
struct CatalogArt {
    /// Colours of a scene.
    struct Palette {
        var skyTop: (Double, Double, Double)
        var skyBottom: (Double, Double, Double)
        var sun: (Double, Double, Double)
        var land: (Double, Double, Double)
        var night: Bool
    }

    static let palettes: [Palette] = [
        Palette(
            skyTop: (12, 20, 58),
            skyBottom: (236, 132, 70),
            sun: (255, 214, 120),
            land: (24, 30, 52),
            night: false
        ),
        Palette(skyTop: (6, 8, 28), skyBottom: (40, 52, 110), sun: (236, 238, 250), land: (10, 14, 30), night: true),
        Palette(
            skyTop: (96, 168, 230),
            skyBottom: (214, 236, 250),
            sun: (255, 250, 210),
            land: (58, 110, 60),
            night: false
        ),
        Palette(
            skyTop: (70, 20, 80),
            skyBottom: (250, 110, 120),
            sun: (255, 230, 160),
            land: (48, 18, 52),
            night: false
        ),
        Palette(
            skyTop: (20, 60, 70),
            skyBottom: (150, 210, 190),
            sun: (250, 250, 230),
            land: (16, 70, 70),
            night: false
        ),
        Palette(skyTop: (30, 12, 10), skyBottom: (200, 80, 30), sun: (255, 190, 90), land: (40, 16, 10), night: false),
        Palette(skyTop: (4, 4, 12), skyBottom: (20, 30, 60), sun: (250, 240, 200), land: (6, 10, 20), night: true),
    ]

    /// One layer of hills.
    private struct Hill {
        var base: Double
        var amplitude: Double
        var frequency: Double
        var phase: Double
        var shade: Double

        /// The top of the hills at `x` (0...1 across).
        func top(at x: Double) -> Double {
            let first: Double = sin(x * frequency + phase)
            let second: Double = 0.5 * sin(x * frequency * 2.3)
            return base - amplitude * (first + second)
        }
    }

    /// A 64-bit hash of the title (FNV-1a), which seeds everything about the scene.
    let seed: UInt64

    init(title: String) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in title.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        seed = hash
    }

    private func random(_ index: UInt64) -> Double {
        var z = seed &+ index &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }

    /// The scene as packed RGB, `width` × `height`.
    func rgb(width: Int, height: Int) -> [UInt8] {
        let palette = Self.palettes[Int(seed % UInt64(Self.palettes.count))]
        let portrait = height > width
        let horizon = portrait ? 0.62 : 0.58 + random(1) * 0.12
        let sunX = 0.2 + random(2) * 0.6
        let sunY = horizon - 0.12 - random(3) * (portrait ? 0.25 : 0.3)
        let sunRadius = (portrait ? 0.11 : 0.07) + random(4) * 0.05
        let water = random(5) < 0.6
        // Layers of hills: each a sum of two sines, darker towards the front.
        let layers: [Hill] = (0..<3).map { layer in
            let index = UInt64(layer)
            let base: Double = horizon + Double(layer) * 0.07 - 0.08
            let amplitude: Double = 0.02 + random(10 + index) * 0.05
            let frequency: Double = 2 + random(20 + index) * 5
            let phase: Double = random(30 + index) * 6.28
            let shade: Double = 0.55 + Double(layer) * 0.22
            return Hill(base: base, amplitude: amplitude, frequency: frequency, phase: phase, shade: shade)
        }
        let aspect = Double(width) / Double(height)
        var output = [UInt8](repeating: 0, count: width * height * 3)
        for row in 0..<height {
            let y = (Double(row) + 0.5) / Double(height)
            for column in 0..<width {
                let x = (Double(column) + 0.5) / Double(width)
                var color = mix(palette.skyTop, palette.skyBottom, min(1, y / max(horizon, 0.01)))
                // The sun (or moon) with a soft glow.
                let dx = (x - sunX) * aspect
                let dy = y - sunY
                let distance = (dx * dx + dy * dy).squareRoot()
                if distance < sunRadius {
                    color = palette.sun
                } else {
                    let glow = max(0, 1 - (distance - sunRadius) / (sunRadius * 3))
                    color = mix(color, palette.sun, glow * glow * 0.5)
                }
                if palette.night, y < horizon, distance > sunRadius * 1.2 {
                    let cellX = Int(x * 90)
                    let cellY = Int(y * 90 / aspect)
                    let star = random(1000 + UInt64(cellX * 977 + cellY * 131))
                    if star > 0.985 { color = mix(color, (255, 255, 255), (star - 0.985) * 60) }
                }
                // Hills in front of the sky; below the horizon, water or land.
                var ground = false
                for layer in layers {
                    if y > layer.top(at: x), y < horizon || !water {
                        color = scaled(palette.land, layer.shade * (0.6 + 0.4 * (1 - y)))
                        ground = true
                    }
                }
                if water, y >= horizon, !ground {
                    // A reflection of what is above the horizon, rippled and darkened.
                    let mirrored = horizon - (y - horizon) * 0.9
                    let ripple: Double = 0.5 + 0.5 * sin(y * 420 + x * 9)
                    var reflected = mix(palette.skyTop, palette.skyBottom, min(1, mirrored / horizon))
                    let rdx = (x - sunX) * aspect
                    let rdy = mirrored - sunY
                    if (rdx * rdx + rdy * rdy).squareRoot() < sunRadius * (1 + ripple * 0.3) { reflected = palette.sun }
                    color = scaled(reflected, 0.55 + 0.15 * ripple)
                }
                let offset = (row * width + column) * 3
                output[offset] = UInt8(max(0, min(255, color.0)))
                output[offset + 1] = UInt8(max(0, min(255, color.1)))
                output[offset + 2] = UInt8(max(0, min(255, color.2)))
            }
        }
        return output
    }

    private func mix(
        _ a: (Double, Double, Double),
        _ b: (Double, Double, Double),
        _ t: Double
    ) -> (Double, Double, Double) {
        let k = max(0, min(1, t))
        return (a.0 + (b.0 - a.0) * k, a.1 + (b.1 - a.1) * k, a.2 + (b.2 - a.2) * k)
    }

    private func scaled(_ color: (Double, Double, Double), _ factor: Double) -> (Double, Double, Double) {
        (color.0 * factor, color.1 * factor, color.2 * factor)
    }
}
