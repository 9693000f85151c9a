internal import COpenSSL

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

/// An X.509 certificate.
///
/// Two certificates are equal when their DER encodings are.
public struct Certificate: Hashable, Sendable, CustomStringConvertible {
    package let reference: X509Reference
    /// The DER encoding of the certificate.
    public let derBytes: [UInt8]

    package init(reference: X509Reference, derBytes: [UInt8]) {
        self.reference = reference
        self.derBytes = derBytes
    }

    /// The certificate OpenSSL holds in `reference`, encoded now; `nil` when it cannot be.
    package init?(reference: X509Reference) {
        let length = i2d_X509(reference.pointer, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_X509(reference.pointer, &cursor)
        }
        guard written == length else { return nil }
        self.init(reference: reference, derBytes: der)
    }

    /// Reads a DER-encoded certificate.
    /// - Throws: ``OpenSSLError/Code/malformedCertificate`` when the bytes are not one complete certificate.
    public init(derEncoded bytes: [UInt8]) throws(OpenSSLError) {
        OpenSSLErrorQueue.clear()
        var consumed = 0
        let certificate = bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            guard let start = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = start
            let certificate = d2i_X509(nil, &cursor, buffer.count)
            consumed = cursor.map { $0 - start } ?? 0
            return certificate
        }
        guard let certificate else {
            throw .drainingQueue(.malformedCertificate, context: "DER certificate of \(bytes.count) bytes")
        }
        let reference = X509Reference(taking: certificate)
        guard consumed == bytes.count else {
            throw OpenSSLError(
                .malformedCertificate,
                context: "DER certificate ends at byte \(consumed) of \(bytes.count): trailing bytes"
            )
        }
        self.init(reference: reference, derBytes: bytes)
    }

    /// Reads the first `CERTIFICATE` block of a PEM text.
    /// - Throws: ``OpenSSLError/Code/malformedPEM`` when there is none, or the error of ``init(derEncoded:)``.
    public init(pemEncoded text: String) throws(OpenSSLError) {
        guard let first = try Certificate.certificates(pemEncoded: text).first else {
            throw OpenSSLError(.malformedPEM, context: "no CERTIFICATE block in \(text.utf8.count) bytes of text")
        }
        self = first
    }

    /// Reads every `CERTIFICATE` block of a PEM text, in order, skipping other text and blocks.
    /// - Returns: the certificates; empty when there are none.
    /// - Throws: ``OpenSSLError`` naming the block that could not be read.
    public static func certificates(pemEncoded text: String) throws(OpenSSLError) -> [Certificate] {
        var certificates: [Certificate] = []
        for (index, block) in try PEMBlock.blocks(in: text).enumerated() where block.label == "CERTIFICATE" {
            do throws(OpenSSLError) {
                certificates.append(try Certificate(derEncoded: block.bytes))
            } catch {
                throw OpenSSLError(
                    error.code,
                    context: "PEM block \(index + 1): \(error.context)",
                    openSSLErrors: error.openSSLErrors
                )
            }
        }
        return certificates
    }

    /// The certificate as a PEM `CERTIFICATE` block.
    public var pemString: String { PEMBlock(label: "CERTIFICATE", bytes: derBytes).pemString }

    // MARK: Names

    /// The subject's common name (the first CN attribute), if any.
    public var subjectCommonName: String? { Self.commonName(of: X509_get_subject_name(reference.pointer)) }

    /// The issuer's common name (the first CN attribute), if any.
    public var issuerCommonName: String? { Self.commonName(of: X509_get_issuer_name(reference.pointer)) }

    /// The subject distinguished name in RFC 2253 form (`CN=…,O=…,C=…`).
    public var subject: String { Self.distinguishedName(X509_get_subject_name(reference.pointer)) }

    /// The issuer distinguished name in RFC 2253 form.
    public var issuer: String { Self.distinguishedName(X509_get_issuer_name(reference.pointer)) }

    public var description: String { "Certificate(\(subject))" }

    // MARK: Serial number and validity

    /// The serial number as big-endian magnitude bytes without leading zeros (a negative serial,
    /// which RFC 5280 forbids but some old certificates carry, gives its magnitude).
    public var serialNumber: [UInt8] {
        guard let serial = X509_get0_serialNumber(reference.pointer),
            let data = ASN1_STRING_get0_data(serial)
        else { return [] }
        let bytes = Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(serial))))
        return Array(bytes.drop { $0 == 0 })
    }

    /// Whether the serial number is negative.
    public var hasNegativeSerialNumber: Bool {
        guard let serial = X509_get0_serialNumber(reference.pointer) else { return false }
        return ASN1_STRING_type(serial) == V_ASN1_NEG_INTEGER
    }

    /// The serial number as an unsigned integer, when it is not negative and fits in 64 bits.
    public var serialNumberUInt64: UInt64? {
        let bytes = serialNumber
        guard !hasNegativeSerialNumber, bytes.count <= 8 else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The start of the validity period.
    public var notBefore: Date { Self.date(X509_get0_notBefore(reference.pointer)) }

    /// The end of the validity period.
    public var notAfter: Date { Self.date(X509_get0_notAfter(reference.pointer)) }

    // MARK: Key and extensions

    /// The subject public key.
    public var publicKey: PublicKey {
        get throws(OpenSSLError) {
            OpenSSLErrorQueue.clear()
            guard let key = X509_get_pubkey(reference.pointer) else {
                throw .drainingQueue(.malformedKey, context: "public key of \(subject)")
            }
            let keyReference = EVPKeyReference(taking: key)
            guard let der = keyReference.subjectPublicKeyInfoDER() else {
                throw .drainingQueue(.encodingFailed, context: "public key of \(subject)")
            }
            return PublicKey(reference: keyReference, derBytes: der)
        }
    }

    /// The DER SubjectPublicKeyInfo, exactly as the certificate carries it.
    public var subjectPublicKeyInfoDER: [UInt8] {
        guard let spki = X509_get_X509_PUBKEY(reference.pointer) else { return [] }
        return OpenSSLHelpers.encodeDER { i2d_X509_PUBKEY(spki, $0) } ?? []
    }

    /// The SHA-256 digest of ``subjectPublicKeyInfoDER``.
    public var subjectPublicKeyInfoSHA256: [UInt8] { Digest.sha256(subjectPublicKeyInfoDER) }

    /// Whether the basic-constraints extension marks the certificate as a CA.
    public var isCA: Bool { X509_get_extension_flags(reference.pointer) & UInt32(EXFLAG_CA) != 0 }

    /// The path-length constraint of a CA certificate, if it states one.
    public var pathLengthConstraint: Int? {
        let value = X509_get_pathlen(reference.pointer)
        return value >= 0 ? Int(value) : nil
    }

    /// Whether the key-usage extension is present and allows digital signatures. A certificate
    /// without the extension allows every usage.
    public var allowsDigitalSignature: Bool {
        X509_get_key_usage(reference.pointer) & UInt32(KU_DIGITAL_SIGNATURE) != 0
    }

    /// The object identifiers of the certificate-policies extension, in dotted form; empty when
    /// the extension is absent.
    public var policyIdentifiers: [String] {
        var critical: Int32 = 0
        guard
            let raw = X509_get_ext_d2i(reference.pointer, NID_certificate_policies, &critical, nil)
        else {
            OpenSSLErrorQueue.clear()
            return []
        }
        let policies = OpaquePointer(raw)
        defer { cast_CERTIFICATEPOLICIES_free(policies) }
        var identifiers: [String] = []
        for index in 0..<max(0, cast_sk_POLICYINFO_num(policies)) {
            if let oid = OpenSSLHelpers.oidString(cast_POLICYINFO_policyid(policies, index)) {
                identifiers.append(oid)
            }
        }
        return identifiers
    }

    public static func == (lhs: Certificate, rhs: Certificate) -> Bool { lhs.derBytes == rhs.derBytes }
    public func hash(into hasher: inout Hasher) { hasher.combine(derBytes) }

    // MARK: Helpers

    private static func commonName(of name: OpaquePointer?) -> String? {
        guard let name else { return nil }
        let index = X509_NAME_get_index_by_NID(name, NID_commonName, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index) else { return nil }
        return OpenSSLHelpers.string(from: X509_NAME_ENTRY_get_data(entry))
    }

    private static func distinguishedName(_ name: OpaquePointer?) -> String {
        guard let name else { return "" }
        let bytes = try? OpenSSLHelpers.collectingBIO(context: "printing a name") { bio in
            X509_NAME_print_ex(bio, name, 0, cast_XN_FLAG_RFC2253()) >= 0
        }
        return bytes.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return Date(timeIntervalSince1970: 0) }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }
}
