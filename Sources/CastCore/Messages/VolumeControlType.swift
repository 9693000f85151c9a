/// How a device's volume can be controlled (`volume.controlType`).
///
/// An open set: values this version does not know are kept as they are.
public struct VolumeControlType: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// The volume can be changed.
    public static let attenuation: VolumeControlType = "attenuation"
    /// The volume cannot be changed.
    public static let fixed: VolumeControlType = "fixed"
    /// The device controls a master volume.
    public static let master: VolumeControlType = "master"
}

extension VolumeControlType: TokenDecodable, TokenEncodable {}
