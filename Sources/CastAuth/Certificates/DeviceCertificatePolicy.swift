/// What a device certificate allows the device to be used for.
public struct DeviceCertificatePolicy: Hashable, Sendable, CustomStringConvertible {
    fileprivate enum Base: Int, Sendable {
        case unrestricted = 0
        case audioOnly = 1
    }

    fileprivate let base: Base

    /// No restriction: audio and video.
    public static let unrestricted = DeviceCertificatePolicy(base: .unrestricted)
    /// The device may only play audio (the chain carries the audio-only certificate policy).
    public static let audioOnly = DeviceCertificatePolicy(base: .audioOnly)

    /// The certificate-policy object identifier that restricts a device to audio.
    public static let audioOnlyPolicyIdentifier = "1.3.6.1.4.1.11129.2.5.2"

    /// The stable numeric value.
    public var rawValue: Int { base.rawValue }

    public var description: String {
        switch base {
        case .unrestricted: "unrestricted"
        case .audioOnly: "audioOnly"
        }
    }
}
