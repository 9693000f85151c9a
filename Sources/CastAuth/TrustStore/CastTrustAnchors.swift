public import CastCrypto

/// Google's production Cast trust anchors, built in.
public enum CastTrustAnchors {
    /// The roots of genuine Cast device certificates: "Cast Root CA" and "Eureka Root CA".
    public static let deviceRoots: [Certificate] = [
        parse(CastRootCertificates.castRootCA, "Cast Root CA"),
        parse(CastRootCertificates.eurekaRootCA, "Eureka Root CA"),
    ]

    /// The root of the certificates that sign Cast revocation lists: "Cast CRL Root CA".
    public static let crlRoots: [Certificate] = [parse(CastRootCertificates.castCRLRootCA, "Cast CRL Root CA")]

    private static func parse(_ pem: String, _ name: String) -> Certificate {
        do {
            return try Certificate(pemEncoded: pem)
        } catch {
            // The PEM text is a constant of this module, checked by its tests.
            preconditionFailure("built-in root \(name) does not parse: \(error)")
        }
    }
}
