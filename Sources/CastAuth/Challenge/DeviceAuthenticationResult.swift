/// The outcome of device authentication that did not fail.
public struct DeviceAuthenticationResult: Hashable, Sendable {
    /// Whether revocation was checked against a valid CRL.
    public struct RevocationStatus: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case notChecked = 0
            case checked = 1
        }

        fileprivate let base: Base

        /// No valid CRL was available (or the policy ignores CRLs).
        public static let notChecked = RevocationStatus(base: .notChecked)
        /// A valid CRL was checked and revokes nothing in the device's path.
        public static let checked = RevocationStatus(base: .checked)

        /// The stable numeric value.
        public var rawValue: Int { base.rawValue }

        public var description: String {
            switch base {
            case .notChecked: "notChecked"
            case .checked: "checked"
            }
        }
    }

    /// The verified device certificate; `nil` when the device was accepted unauthenticated.
    public let device: VerifiedDeviceCertificate?
    /// Whether the CRL was checked.
    public let revocationStatus: RevocationStatus
    /// Why the device was accepted without authentication (policy off, an `AuthError` reply or
    /// a timeout under ``DeviceAuthenticationPolicy/Mode/ifSupported``); `nil` when authenticated.
    public let unauthenticatedReason: String?

    /// Whether the device proved it holds a key certified by a trusted root.
    public var isAuthenticated: Bool { device != nil }
    /// Whether the device's certificate restricts it to audio.
    public var isAudioOnly: Bool { device?.isAudioOnly ?? false }
    /// The device certificate's common name, when authenticated.
    public var deviceCommonName: String? { device?.commonName }

    static func authenticated(_ device: VerifiedDeviceCertificate, revocation: RevocationStatus) -> Self {
        DeviceAuthenticationResult(device: device, revocationStatus: revocation, unauthenticatedReason: nil)
    }

    /// A device accepted without authentication, for the reason given.
    public static func unauthenticated(_ reason: String) -> Self {
        DeviceAuthenticationResult(device: nil, revocationStatus: .notChecked, unauthenticatedReason: reason)
    }
}
