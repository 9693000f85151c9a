/// An RGBA colour, written in JSON as a CSS string `#RRGGBBAA` (text-track styles).
///
/// Decoding also accepts `#RRGGBB` (opaque).
public struct CastColor: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The red component.
    public var red: UInt8
    /// The green component.
    public var green: UInt8
    /// The blue component.
    public var blue: UInt8
    /// The opacity; 255 is opaque.
    public var alpha: UInt8

    /// Creates a colour from its components.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#RRGGBBAA` or `#RRGGBB`; `nil` for anything else.
    public init?(cssString: String) {
        let bytes = Array(cssString.utf8)
        guard bytes.first == UInt8(ascii: "#"), bytes.count == 7 || bytes.count == 9 else { return nil }
        var components: [UInt8] = []
        var index = 1
        while index < bytes.count {
            guard let high = JSONParser.hexValue(bytes[index]), let low = JSONParser.hexValue(bytes[index + 1]) else {
                return nil
            }
            components.append(high << 4 | low)
            index += 2
        }
        self.init(
            red: components[0],
            green: components[1],
            blue: components[2],
            alpha: components.count > 3 ? components[3] : 255
        )
    }

    /// The colour as `#RRGGBBAA` with upper-case digits.
    public var cssString: String {
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "#")]
        for component in [red, green, blue, alpha] {
            bytes.append(digits[Int(component >> 4)])
            bytes.append(digits[Int(component & 0xF)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public var description: String { cssString }

    /// Opaque black.
    public static let black = CastColor(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = CastColor(red: 255, green: 255, blue: 255)
    /// Fully transparent.
    public static let transparent = CastColor(red: 0, green: 0, blue: 0, alpha: 0)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let color = CastColor(cssString: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\"\(text)\" is not a colour of the form #RRGGBBAA"
            )
        }
        self = color
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(cssString)
    }
}

extension CastColor: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        let text = try String(token: index, in: document)
        guard let color = CastColor(cssString: text) else {
            throw document.invalidValue("\"\(text)\" is not a colour of the form #RRGGBBAA", at: index)
        }
        self = color
    }
}

extension CastColor: TokenEncodable {
    func write(to writer: inout JSONWriter) {
        writer.write(cssString)
    }
}
