/// A colour for text or background.
///
/// Colours are given as 24-bit RGB, as an index into the 256-colour palette, or as one of the
/// 16 basic terminal colours. The renderer converts each colour to what the terminal can show
/// (see ``ColorCapability``): RGB becomes the nearest palette entry on a 256-colour terminal and
/// the nearest basic colour on a 16-colour one; nothing is emitted when colour is off.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    enum Storage: Hashable, Sendable {
        case palette(UInt8)
        case rgb(UInt8, UInt8, UInt8)
    }

    let storage: Storage

    init(storage: Storage) {
        self.storage = storage
    }

    /// A 24-bit colour.
    public static func rgb(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Color {
        Color(storage: .rgb(red, green, blue))
    }

    /// An entry of the 256-colour palette: 0–15 the basic colours, 16–231 a 6×6×6 cube,
    /// 232–255 a grey ramp.
    public static func palette(_ index: UInt8) -> Color {
        Color(storage: .palette(index))
    }

    /// Parses `#rrggbb` or `rrggbb` (case-insensitive); returns `nil` for anything else.
    public init?(hex: String) {
        var text = Substring(hex)
        if text.first == "#" { text = text.dropFirst() }
        guard text.count == 6, text.allSatisfy(\.isHexDigit), let value = UInt32(text, radix: 16) else {
            return nil
        }
        self = .rgb(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }

    /// Basic colour 0.
    public static let black = palette(0)
    /// Basic colour 1.
    public static let red = palette(1)
    /// Basic colour 2.
    public static let green = palette(2)
    /// Basic colour 3.
    public static let yellow = palette(3)
    /// Basic colour 4.
    public static let blue = palette(4)
    /// Basic colour 5.
    public static let magenta = palette(5)
    /// Basic colour 6.
    public static let cyan = palette(6)
    /// Basic colour 7.
    public static let white = palette(7)
    /// Basic colour 8.
    public static let brightBlack = palette(8)
    /// Basic colour 9.
    public static let brightRed = palette(9)
    /// Basic colour 10.
    public static let brightGreen = palette(10)
    /// Basic colour 11.
    public static let brightYellow = palette(11)
    /// Basic colour 12.
    public static let brightBlue = palette(12)
    /// Basic colour 13.
    public static let brightMagenta = palette(13)
    /// Basic colour 14.
    public static let brightCyan = palette(14)
    /// Basic colour 15.
    public static let brightWhite = palette(15)

    /// The colour's red, green and blue components (palette entries use xterm's default values).
    public var components: (red: UInt8, green: UInt8, blue: UInt8) {
        switch storage {
        case .rgb(let red, let green, let blue): (red, green, blue)
        case .palette(let index): Color.paletteComponents(index)
        }
    }

    public var description: String {
        switch storage {
        case .palette(let index): "palette(\(index))"
        case .rgb(let red, let green, let blue): "rgb(\(red), \(green), \(blue))"
        }
    }
}

// MARK: - Palette and conversion

extension Color {
    static let basicComponents: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
        (255, 255, 255),
    ]

    static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    static func paletteComponents(_ index: UInt8) -> (UInt8, UInt8, UInt8) {
        switch index {
        case 0..<16:
            return basicComponents[Int(index)]
        case 16..<232:
            let value = Int(index) - 16
            return (cubeLevels[value / 36], cubeLevels[value / 6 % 6], cubeLevels[value % 6])
        default:
            let level = UInt8(8 + 10 * (Int(index) - 232))
            return (level, level, level)
        }
    }

    static func distance(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8)) -> Int {
        let red = Int(a.0) - Int(b.0)
        let green = Int(a.1) - Int(b.1)
        let blue = Int(a.2) - Int(b.2)
        return red * red + green * green + blue * blue
    }

    /// The nearest index in the 256-colour palette, searching the cube and the grey ramp
    /// (the basic 16 are left out: terminals often redefine them).
    static func nearestPaletteIndex(_ rgb: (UInt8, UInt8, UInt8)) -> UInt8 {
        func nearestLevel(_ value: UInt8) -> Int {
            var best = 0
            for (index, level) in cubeLevels.enumerated()
            where abs(Int(level) - Int(value)) < abs(Int(cubeLevels[best]) - Int(value)) {
                best = index
            }
            return best
        }
        let red = nearestLevel(rgb.0)
        let green = nearestLevel(rgb.1)
        let blue = nearestLevel(rgb.2)
        let cubeIndex = UInt8(16 + 36 * red + 6 * green + blue)
        let average = (Int(rgb.0) + Int(rgb.1) + Int(rgb.2)) / 3
        let greyStep = min(23, max(0, (average - 3) / 10))
        let greyIndex = UInt8(232 + greyStep)
        let cubeDistance = distance(rgb, paletteComponents(cubeIndex))
        let greyDistance = distance(rgb, paletteComponents(greyIndex))
        return greyDistance < cubeDistance ? greyIndex : cubeIndex
    }

    /// The nearest of the 16 basic colours.
    static func nearestBasicIndex(_ rgb: (UInt8, UInt8, UInt8)) -> UInt8 {
        var best = 0
        var bestDistance = Int.max
        for (index, candidate) in basicComponents.enumerated() {
            let candidateDistance = distance(rgb, candidate)
            if candidateDistance < bestDistance {
                best = index
                bestDistance = candidateDistance
            }
        }
        return UInt8(best)
    }

    /// The colour as the terminal can show it, or `nil` when colour is off.
    public func downgraded(to capability: ColorCapability) -> Color? {
        switch (capability, storage) {
        case (.none, _):
            return nil
        case (.trueColor, _):
            return self
        case (.palette256, .palette):
            return self
        case (.palette256, .rgb(let red, let green, let blue)):
            return .palette(Color.nearestPaletteIndex((red, green, blue)))
        case (.basic16, .palette(let index)) where index < 16:
            return self
        case (.basic16, _):
            return .palette(Color.nearestBasicIndex(components))
        }
    }
}
