public import CastCrypto

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Checks that a device certificate chains to a trusted Cast root and may act as one.
///
/// Beyond path validation (signatures, validity at the given time, basic constraints, path
/// lengths, name constraints), it requires that:
/// - the device certificate is not a CA certificate;
/// - its key usage, when present, allows digital signatures;
/// - every certificate of the path holds an RSA key of at least 2048 bits.
///
/// The device is audio-only when the device certificate or an intermediate carries the
/// audio-only certificate policy (``DeviceCertificatePolicy/audioOnlyPolicyIdentifier``); the
/// "any policy" identifier does not restrict it.
public struct DeviceCertificateVerifier: Sendable {
    /// The smallest RSA modulus accepted anywhere in the path.
    public static let minimumRSAKeyBits = 2048

    private let chainVerifier: CertificateChainVerifier

    /// The trust anchors.
    public var trustAnchors: [Certificate] { chainVerifier.trustAnchors }

    /// Creates a verifier.
    /// - Parameter trustAnchors: the roots to trust; Google's production device roots unless given.
    /// - Throws: ``DeviceAuthError/Code/deviceCertificateNotTrusted`` when the anchors cannot be loaded.
    public init(trustAnchors: [Certificate] = CastTrustAnchors.deviceRoots) throws(DeviceAuthError) {
        do {
            chainVerifier = try CertificateChainVerifier(trustAnchors: trustAnchors)
        } catch {
            throw DeviceAuthError(.deviceCertificateNotTrusted, reason: "cannot load trust anchors: \(error)")
        }
    }

    /// Verifies a device certificate and the intermediates it came with.
    /// - Parameters:
    ///   - certificate: the device certificate.
    ///   - intermediates: certificates that may complete the path.
    ///   - time: the verification time.
    /// - Returns: the verified certificate with its path and policy.
    /// - Throws: ``DeviceAuthError`` with ``DeviceAuthError/Code/malformedClientCertificate`` for a
    ///   certificate unfit for a device, ``DeviceAuthError/Code/deviceCertificateNotTrusted`` for a
    ///   failed path (with ``DeviceAuthError/certificateError``).
    public func verify(
        _ certificate: Certificate,
        intermediates: [Certificate] = [],
        at time: Date
    ) throws(DeviceAuthError) -> VerifiedDeviceCertificate {
        let name = certificate.subjectCommonName ?? certificate.subject
        if certificate.isCA {
            throw DeviceAuthError(
                .malformedClientCertificate,
                certificateName: name,
                reason: "a CA certificate is not a device certificate"
            )
        }
        if !certificate.allowsDigitalSignature {
            throw DeviceAuthError(
                .malformedClientCertificate,
                certificateName: name,
                reason: "key usage does not allow digital signatures"
            )
        }
        try Self.checkKey(of: certificate, code: .malformedClientCertificate)

        let path: [Certificate]
        do {
            path = try chainVerifier.verify(certificate, intermediates: intermediates, at: time)
        } catch {
            throw DeviceAuthError(
                .deviceCertificateNotTrusted,
                certificateName: error.certificateName,
                reason: "\(error.code): \(error.reason) (depth \(error.depth))",
                certificateError: error
            )
        }
        for issuer in path.dropFirst() {
            try Self.checkKey(of: issuer, code: .deviceCertificateNotTrusted)
        }
        let restricted = path.dropLast().contains {
            $0.policyIdentifiers.contains(DeviceCertificatePolicy.audioOnlyPolicyIdentifier)
        }
        return VerifiedDeviceCertificate(
            certificate: certificate,
            path: path,
            policy: restricted ? .audioOnly : .unrestricted
        )
    }

    /// Verifies DER certificates as a device-auth response carries them.
    /// - Throws: ``DeviceAuthError/Code/notX509Certificate`` when one does not parse, else as
    ///   ``verify(_:intermediates:at:)``.
    public func verify(
        deviceCertificateDER: [UInt8],
        intermediatesDER: [[UInt8]],
        at time: Date
    ) throws(DeviceAuthError) -> VerifiedDeviceCertificate {
        let certificate = try Self.parse(deviceCertificateDER, role: "device certificate")
        var intermediates: [Certificate] = []
        for (index, der) in intermediatesDER.enumerated() {
            intermediates.append(try Self.parse(der, role: "intermediate certificate \(index)"))
        }
        return try verify(certificate, intermediates: intermediates, at: time)
    }

    static func parse(_ der: [UInt8], role: String) throws(DeviceAuthError) -> Certificate {
        do {
            return try Certificate(derEncoded: der)
        } catch {
            throw DeviceAuthError(.notX509Certificate, reason: "\(role) of \(der.count) bytes: \(error)")
        }
    }

    private static func checkKey(of certificate: Certificate, code: DeviceAuthError.Code) throws(DeviceAuthError) {
        let name = certificate.subjectCommonName ?? certificate.subject
        let key: PublicKey
        do {
            key = try certificate.publicKey
        } catch {
            throw DeviceAuthError(code, certificateName: name, reason: "unreadable public key: \(error)")
        }
        guard key.isRSA else {
            throw DeviceAuthError(code, certificateName: name, reason: "the key is not an RSA key")
        }
        guard key.bitSize >= minimumRSAKeyBits else {
            throw DeviceAuthError(
                code,
                certificateName: name,
                reason: "RSA key of \(key.bitSize) bits is under the minimum of \(minimumRSAKeyBits)"
            )
        }
    }
}
