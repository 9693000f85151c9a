internal import COpenSSL

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Issues X.509 v3 certificates signed by a certificate authority (or self-signed roots), for
/// certificate chains such as a virtual device's device-authentication chain.
public enum CertificateIssuer {
    /// What the issued certificate may do.
    public struct Usage: Sendable, Equatable {
        /// Whether the certificate is a CA (basic constraints `CA:TRUE`, key usage keyCertSign
        /// and cRLSign) or an end entity (`CA:FALSE`, digitalSignature and keyEncipherment).
        public var isCA: Bool
        /// The CA path length constraint, for CA certificates.
        public var pathLength: Int?
        /// Certificate-policy object identifiers to carry (dotted form).
        public var policyIdentifiers: [String]

        /// Creates a usage.
        public init(isCA: Bool, pathLength: Int? = nil, policyIdentifiers: [String] = []) {
            self.isCA = isCA
            self.pathLength = pathLength
            self.policyIdentifiers = policyIdentifiers
        }
    }

    /// Issues a certificate for `subjectKey`.
    ///
    /// The certificate has a random positive 63-bit serial number, subject `CN=commonName`, the
    /// issuer's subject as issuer (its own for a self-signed root), a subject key identifier and,
    /// below a root, the authority key identifier; it is signed with SHA-256.
    /// - Parameters:
    ///   - commonName: the subject common name.
    ///   - subjectKey: the key to certify.
    ///   - usage: CA or end entity, path length and policies.
    ///   - issuer: the issuing certificate and its key; `nil` makes a self-signed certificate
    ///     signed by `subjectKey`.
    ///   - notBefore: the start of validity (whole seconds).
    ///   - validity: how long the certificate is valid from `notBefore`, in seconds.
    /// - Throws: ``OpenSSLError/Code/certificateCreationFailed`` or an encoding error.
    public static func issue(
        commonName: String,
        subjectKey: PrivateKey,
        usage: Usage,
        issuer: (certificate: Certificate, key: PrivateKey)?,
        notBefore: Date,
        validity: TimeInterval
    ) throws(OpenSSLError) -> Certificate {
        precondition(validity > 0, "validity must be positive")
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
        let issuerPointer = issuer?.certificate.reference.pointer ?? x509
        try check(X509_set_issuer_name(x509, X509_get_subject_name(issuerPointer)) == 1, "setting the issuer")
        try check(X509_set_pubkey(x509, subjectKey.reference.pointer) == 1, "setting the public key")

        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuerPointer, x509, nil, nil, 0)
        var extensions: [(Int32, String)]
        if usage.isCA {
            let length = usage.pathLength.map { ",pathlen:\($0)" } ?? ""
            extensions = [
                (NID_basic_constraints, "critical,CA:TRUE\(length)"),
                (NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature"),
            ]
        } else {
            extensions = [
                (NID_basic_constraints, "critical,CA:FALSE"),
                (NID_key_usage, "critical,digitalSignature,keyEncipherment"),
            ]
        }
        extensions.append((NID_subject_key_identifier, "hash"))
        if issuer != nil { extensions.append((NID_authority_key_identifier, "keyid:always")) }
        for (nid, value) in extensions {
            guard let extensionPointer = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                throw .drainingQueue(.certificateCreationFailed, context: "building extension \(value)")
            }
            defer { X509_EXTENSION_free(extensionPointer) }
            try check(X509_add_ext(x509, extensionPointer, -1) == 1, "adding extension \(value)")
        }
        if !usage.policyIdentifiers.isEmpty {
            try addPolicies(usage.policyIdentifiers, to: x509, commonName: commonName)
        }
        let signingKey = issuer?.key ?? subjectKey
        try check(X509_sign(x509, signingKey.reference.pointer, EVP_sha256()) > 0, "signing")
        guard let der = OpenSSLHelpers.encodeDER({ i2d_X509(x509, $0) }) else {
            throw .drainingQueue(.encodingFailed, context: "encoding the certificate for CN=\(commonName)")
        }
        return Certificate(reference: reference, derBytes: der)
    }

    /// Adds a certificate-policies extension (built as DER: the configuration-free route).
    private static func addPolicies(
        _ identifiers: [String],
        to x509: OpaquePointer,
        commonName: String
    ) throws(OpenSSLError) {
        var policies: [UInt8] = []
        for identifier in identifiers {
            guard let oid = derObjectIdentifier(identifier) else {
                throw OpenSSLError(.certificateCreationFailed, context: "policy \(identifier) is not a dotted OID")
            }
            policies += derElement(0x30, oid)
        }
        let value = derElement(0x30, policies)
        guard let octets = ASN1_OCTET_STRING_new() else {
            throw .drainingQueue(.certificateCreationFailed, context: "allocating the policies")
        }
        defer { ASN1_OCTET_STRING_free(octets) }
        guard ASN1_OCTET_STRING_set(octets, value, Int32(value.count)) == 1,
            let extensionPointer = X509_EXTENSION_create_by_NID(nil, NID_certificate_policies, 0, octets)
        else {
            throw .drainingQueue(.certificateCreationFailed, context: "building the policies for CN=\(commonName)")
        }
        defer { X509_EXTENSION_free(extensionPointer) }
        guard X509_add_ext(x509, extensionPointer, -1) == 1 else {
            throw .drainingQueue(.certificateCreationFailed, context: "adding the policies for CN=\(commonName)")
        }
    }

    /// A DER tag-length-value element.
    static func derElement(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var length: [UInt8]
        if content.count < 0x80 {
            length = [UInt8(content.count)]
        } else {
            var bytes: [UInt8] = []
            var remaining = content.count
            while remaining > 0 {
                bytes.insert(UInt8(remaining & 0xFF), at: 0)
                remaining >>= 8
            }
            length = [0x80 | UInt8(bytes.count)] + bytes
        }
        return [tag] + length + content
    }

    /// The DER `OBJECT IDENTIFIER` element of a dotted OID, or `nil` when it is not one.
    static func derObjectIdentifier(_ dotted: String) -> [UInt8]? {
        let arcs = dotted.split(separator: ".", omittingEmptySubsequences: false).map { UInt64($0) }
        guard arcs.count >= 2, arcs.allSatisfy({ $0 != nil }) else { return nil }
        let values = arcs.compactMap { $0 }
        guard values[0] <= 2, values[0] == 2 || values[1] < 40, values[1] < UInt64.max - 80 else { return nil }
        var content: [UInt8] = []
        for arc in [values[0] * 40 + values[1]] + values.dropFirst(2) {
            var chunk: [UInt8] = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                chunk.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            content += chunk
        }
        return derElement(0x06, content)
    }
}
