/// The dynamic range of the playing video (`videoInfo.hdrType`).
///
/// An open set: values this version does not know are kept as they are.
public struct HDRType: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// Standard dynamic range.
    public static let sdr: HDRType = "sdr"
    /// High dynamic range.
    public static let hdr: HDRType = "hdr"
    /// Dolby Vision.
    public static let dolbyVision: HDRType = "dv"
}

extension HDRType: TokenDecodable, TokenEncodable {}
