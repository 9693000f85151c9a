/// The format of HLS audio segments (`hlsSegmentFormat`).
///
/// An open set: values this version does not know are kept as they are.
public struct HLSSegmentFormat: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// AAC packed audio.
    public static let aac: HLSSegmentFormat = "aac"
    /// AC-3 packed audio.
    public static let ac3: HLSSegmentFormat = "ac3"
    /// MP3 packed audio.
    public static let mp3: HLSSegmentFormat = "mp3"
    /// MPEG-2 transport stream.
    public static let ts: HLSSegmentFormat = "ts"
    /// AAC in an MPEG-2 transport stream.
    public static let tsAAC: HLSSegmentFormat = "ts_aac"
    /// Enhanced AC-3 packed audio.
    public static let eAC3: HLSSegmentFormat = "e-ac3"
    /// Fragmented MP4.
    public static let fmp4: HLSSegmentFormat = "fmp4"
}

extension HLSSegmentFormat: TokenDecodable, TokenEncodable {}
