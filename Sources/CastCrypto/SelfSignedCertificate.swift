#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A private key and an X.509 v3 certificate for it, signed by that same key.
///
/// Cast devices present such a certificate in TLS; it lives a few days at most, because senders
/// (Chromium) reject one whose validity ends more than four days after the connection.
public struct SelfSignedCertificate: Sendable {
    /// The certificate.
    public let certificate: Certificate
    /// The key whose public half the certificate carries.
    public let privateKey: PrivateKey

    /// The longest validity Cast senders accept for a device's TLS certificate (four days).
    public static let maximumCastLifetime: TimeInterval = 4 * 86_400

    /// Generates a certificate for a key.
    ///
    /// The certificate has a random positive 63-bit serial number, subject = issuer = `CN=commonName`,
    /// basic constraints `CA:FALSE` (critical), key usage digitalSignature + keyEncipherment, and
    /// is signed with SHA-256.
    /// - Parameters:
    ///   - commonName: the subject and issuer common name.
    ///   - notBefore: the start of validity (whole seconds).
    ///   - validity: how long the certificate is valid from `notBefore`, in seconds; two days unless given.
    ///   - key: the key to certify; a new RSA-2048 key unless given.
    /// - Throws: ``OpenSSLError/Code/certificateCreationFailed`` or a key-generation error.
    public static func generate(
        commonName: String,
        notBefore: Date = Date(),
        validity: TimeInterval = 2 * 86_400,
        key: PrivateKey? = nil
    ) throws(OpenSSLError) -> SelfSignedCertificate {
        let privateKey: PrivateKey
        if let key { privateKey = key } else { privateKey = try PrivateKey.generateRSA(bits: 2048) }
        // The same certificate a CA issues to an end entity, signed by its own key.
        let certificate = try CertificateIssuer.issue(
            commonName: commonName,
            subjectKey: privateKey,
            usage: CertificateIssuer.Usage(isCA: false),
            issuer: nil,
            notBefore: notBefore,
            validity: validity
        )
        return SelfSignedCertificate(certificate: certificate, privateKey: privateKey)
    }
}
