public import CastCrypto

/// A device certificate whose path to a trusted root has been checked.
public struct VerifiedDeviceCertificate: Hashable, Sendable {
    /// The device certificate.
    public let certificate: Certificate
    /// The verified path: the device certificate first, the trust anchor last.
    public let path: [Certificate]
    /// What the certificate allows.
    public let policy: DeviceCertificatePolicy

    /// The device certificate's common name (its subject when it has none).
    public var commonName: String { certificate.subjectCommonName ?? certificate.subject }

    /// Whether the device is restricted to audio.
    public var isAudioOnly: Bool { policy == .audioOnly }
}
