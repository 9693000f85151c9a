internal import COpenSSL
import Foundation

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
        precondition(validity > 0, "validity must be positive")
        let privateKey: PrivateKey
        if let key { privateKey = key } else { privateKey = try PrivateKey.generateRSA(bits: 2048) }
        let serialBytes = try SecureRandom.bytes(count: 8)
        let serial = serialBytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & 0x7fff_ffff_ffff_ffff | 1

        OpenSSLErrorQueue.clear()
        guard let x509 = X509_new() else {
            throw .drainingQueue(.certificateCreationFailed, context: "allocating a certificate")
        }
        let reference = X509Reference(taking: x509)
        func check(_ ok: Bool, _ step: String) throws(OpenSSLError) {
            if !ok { throw .drainingQueue(.certificateCreationFailed, context: "\(step) for CN=\(commonName)") }
        }
        let start = time_t(notBefore.timeIntervalSince1970.rounded(.down))
        let end = time_t((notBefore.timeIntervalSince1970 + validity).rounded(.down))
        try check(X509_set_version(x509, 2) == 1, "setting version 3")
        try check(ASN1_INTEGER_set_uint64(X509_get_serialNumber(x509), serial) == 1, "setting the serial number")
        try check(ASN1_TIME_set(X509_getm_notBefore(x509), start) != nil, "setting notBefore")
        try check(ASN1_TIME_set(X509_getm_notAfter(x509), end) != nil, "setting notAfter")

        guard let name = X509_NAME_new() else {
            throw .drainingQueue(.certificateCreationFailed, context: "allocating a name")
        }
        defer { X509_NAME_free(name) }
        let added = X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, commonName, -1, -1, 0)
        try check(added == 1, "setting the common name")
        try check(X509_set_subject_name(x509, name) == 1, "setting the subject")
        try check(X509_set_issuer_name(x509, name) == 1, "setting the issuer")
        try check(X509_set_pubkey(x509, privateKey.reference.pointer) == 1, "setting the public key")

        var context = X509V3_CTX()
        X509V3_set_ctx(&context, x509, x509, nil, nil, 0)
        for (nid, value) in [
            (NID_basic_constraints, "critical,CA:FALSE"),
            (NID_key_usage, "critical,digitalSignature,keyEncipherment"),
            (NID_subject_key_identifier, "hash"),
        ] {
            guard let extensionPointer = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                throw .drainingQueue(.certificateCreationFailed, context: "building extension \(value)")
            }
            defer { X509_EXTENSION_free(extensionPointer) }
            try check(X509_add_ext(x509, extensionPointer, -1) == 1, "adding extension \(value)")
        }
        try check(X509_sign(x509, privateKey.reference.pointer, EVP_sha256()) > 0, "signing")

        guard let der = OpenSSLHelpers.encodeDER({ i2d_X509(x509, $0) }) else {
            throw .drainingQueue(.encodingFailed, context: "encoding the certificate for CN=\(commonName)")
        }
        return SelfSignedCertificate(
            certificate: Certificate(reference: reference, derBytes: der),
            privateKey: privateKey
        )
    }
}
