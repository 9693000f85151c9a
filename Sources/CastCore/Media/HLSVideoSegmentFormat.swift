/// The format of HLS video segments (`hlsVideoSegmentFormat`).
///
/// An open set: values this version does not know are kept as they are.
public struct HLSVideoSegmentFormat: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// MPEG-2 transport stream.
    public static let mpeg2TS: HLSVideoSegmentFormat = "mpeg2_ts"
    /// Fragmented MP4.
    public static let fmp4: HLSVideoSegmentFormat = "fmp4"
}

extension HLSVideoSegmentFormat: TokenDecodable, TokenEncodable {}
