internal import COpenSSL

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Builds and checks a certification path from a certificate to one of a set of trust anchors,
/// using OpenSSL's X.509 path validation at a chosen time.
///
/// The check covers issuer signatures, validity periods, basic constraints and path lengths,
/// name constraints and unhandled critical extensions. A trust anchor is trusted as given: its
/// own validity period is not checked (a root that has expired still anchors paths), and an
/// anchor need not be self-signed.
public struct CertificateChainVerifier: Sendable {
    private let store: X509StoreReference
    /// The trust anchors.
    public let trustAnchors: [Certificate]

    /// Creates a verifier.
    /// - Parameter trustAnchors: the certificates that end a trusted path.
    /// - Throws: ``OpenSSLError/Code/verificationSetupFailed`` when the store cannot be built.
    public init(trustAnchors: [Certificate]) throws(OpenSSLError) {
        self.trustAnchors = trustAnchors
        self.store = try X509StoreReference(anchors: trustAnchors)
    }

    /// Verifies `leaf` through `intermediates` to a trust anchor.
    /// - Parameters:
    ///   - leaf: the certificate to verify.
    ///   - intermediates: certificates that may complete the path, in any order; extra ones are ignored.
    ///   - time: the moment at which every certificate below the anchor must be valid.
    /// - Returns: the path, leaf first and trust anchor last.
    /// - Throws: ``CertificateVerificationError`` naming the first failing check.
    public func verify(
        _ leaf: Certificate,
        intermediates: [Certificate] = [],
        at time: Date
    ) throws(CertificateVerificationError) -> [Certificate] {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        func setupFailure(_ step: String) -> CertificateVerificationError {
            CertificateVerificationError(
                .other,
                depth: 0,
                certificateName: Self.name(of: leaf),
                reason: "\(step) failed: \(OpenSSLErrorQueue.drain().joined(separator: "; "))"
            )
        }
        guard let untrusted = cast_sk_X509_new_null() else { throw setupFailure("allocating a stack") }
        defer { cast_sk_X509_free(untrusted) }
        for certificate in intermediates {
            guard cast_sk_X509_push(untrusted, certificate.reference.pointer) > 0 else {
                throw setupFailure("building the intermediate list")
            }
        }
        guard let context = X509_STORE_CTX_new() else { throw setupFailure("allocating a verification context") }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store.pointer, leaf.reference.pointer, untrusted) == 1 else {
            throw setupFailure("initialising the verification context")
        }
        X509_STORE_CTX_set_time(context, 0, time_t(time.timeIntervalSince1970.rounded(.down)))
        X509_STORE_CTX_set_flags(context, UInt(X509_V_FLAG_PARTIAL_CHAIN))
        X509_STORE_CTX_set_verify_cb(context, anchorValidityIgnoringCallback)

        let status = X509_verify_cert(context)
        guard status == 1 else {
            let errorCode = X509_STORE_CTX_get_error(context)
            let depth = Int(X509_STORE_CTX_get_error_depth(context))
            var name = Self.name(of: leaf)
            if let current = X509_STORE_CTX_get_current_cert(context) {
                name = Self.name(ofPointer: current)
            }
            let reason = String(cString: X509_verify_cert_error_string(Int(errorCode)))
            throw CertificateVerificationError(
                Self.code(for: errorCode),
                depth: depth,
                certificateName: name,
                reason: reason
            )
        }
        return path(from: context, leaf: leaf, intermediates: intermediates)
    }

    /// Maps the verified OpenSSL chain back to ``Certificate`` values.
    private func path(from context: OpaquePointer, leaf: Certificate, intermediates: [Certificate]) -> [Certificate] {
        guard let chain = X509_STORE_CTX_get0_chain(context) else { return [leaf] }
        let known = [leaf] + intermediates + trustAnchors
        var path: [Certificate] = []
        for index in 0..<cast_sk_X509_num(chain) {
            guard let pointer = cast_sk_X509_value(chain, index) else { continue }
            if let match = known.first(where: { $0.reference.pointer == pointer }) {
                path.append(match)
            } else if X509_up_ref(pointer) == 1 {
                let reference = X509Reference(taking: pointer)
                if let der = OpenSSLHelpers.encodeDER({ i2d_X509(pointer, $0) }) {
                    path.append(Certificate(reference: reference, derBytes: der))
                }
            }
        }
        return path
    }

    private static func name(of certificate: Certificate) -> String {
        certificate.subjectCommonName ?? certificate.subject
    }

    private static func name(ofPointer pointer: OpaquePointer) -> String {
        guard X509_up_ref(pointer) == 1 else { return "?" }
        let reference = X509Reference(taking: pointer)
        return name(of: Certificate(reference: reference, derBytes: []))
    }

    private static func code(for error: Int32) -> CertificateVerificationError.Code {
        switch error {
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
            X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT,
            X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, X509_V_ERR_CERT_UNTRUSTED, X509_V_ERR_CERT_CHAIN_TOO_LONG:
            .untrusted
        case X509_V_ERR_CERT_HAS_EXPIRED:
            .expired
        case X509_V_ERR_CERT_NOT_YET_VALID:
            .notYetValid
        case X509_V_ERR_PATH_LENGTH_EXCEEDED:
            .pathLengthExceeded
        case X509_V_ERR_PERMITTED_VIOLATION, X509_V_ERR_EXCLUDED_VIOLATION, X509_V_ERR_SUBTREE_MINMAX,
            X509_V_ERR_UNSUPPORTED_CONSTRAINT_TYPE, X509_V_ERR_UNSUPPORTED_CONSTRAINT_SYNTAX,
            X509_V_ERR_UNSUPPORTED_NAME_SYNTAX:
            .nameConstraintViolation
        case X509_V_ERR_INVALID_CA, X509_V_ERR_KEYUSAGE_NO_CERTSIGN:
            .invalidCA
        case X509_V_ERR_CERT_SIGNATURE_FAILURE, X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE,
            X509_V_ERR_UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY:
            .badSignature
        case X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION:
            .unhandledCriticalExtension
        case X509_V_ERR_ERROR_IN_CERT_NOT_BEFORE_FIELD, X509_V_ERR_ERROR_IN_CERT_NOT_AFTER_FIELD,
            X509_V_ERR_INVALID_EXTENSION, X509_V_ERR_INVALID_NON_CA:
            .malformedCertificate
        default:
            .other
        }
    }
}

/// Accepts a validity-period error on the last certificate of the built chain, which is always
/// the trust anchor once OpenSSL checks validity periods; everything else keeps OpenSSL's verdict.
private func anchorValidityIgnoringCallback(_ ok: Int32, _ context: OpaquePointer?) -> Int32 {
    guard ok == 0, let context else { return ok }
    let error = X509_STORE_CTX_get_error(context)
    guard error == X509_V_ERR_CERT_HAS_EXPIRED || error == X509_V_ERR_CERT_NOT_YET_VALID,
        let chain = X509_STORE_CTX_get0_chain(context)
    else { return ok }
    let depth = X509_STORE_CTX_get_error_depth(context)
    let top = cast_sk_X509_num(chain) - 1
    guard depth == top, X509_STORE_CTX_get_num_untrusted(context) <= top else { return ok }
    return 1
}
