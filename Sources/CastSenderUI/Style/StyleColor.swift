import CastCore

/// A colour as 8-bit sRGB components with alpha, written `#RRGGBB` or `#RRGGBBAA`.
public struct StyleColor: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8
    /// Alpha, 0 (transparent) – 255 (opaque).
    public var alpha: UInt8

    /// Creates a colour.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA` (hex digits in either case); `nil` for anything else.
    public init?(hex: String) {
        guard let color = CastColor(cssString: hex) else { return nil }
        self.init(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)
    }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque.
    public var hex: String {
        let css = CastColor(red: red, green: green, blue: blue, alpha: alpha).cssString
        return alpha == 255 ? String(css.dropLast(2)) : css
    }

    public var description: String { hex }
}
