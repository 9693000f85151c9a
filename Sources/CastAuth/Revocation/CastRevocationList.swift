import CastCore
public import CastCrypto

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A Cast certificate revocation list whose signature, signer and validity have been checked.
///
/// A Cast CRL (unlike an X.509 CRL) revokes certificates either by the SHA-256 hash of their
/// SubjectPublicKeyInfo, or by a range of serial numbers under an issuer named by the SHA-256
/// hash of the issuer's SubjectPublicKeyInfo.
public struct CastRevocationList: Hashable, Sendable {
    /// The CRL format version this reader knows (SHA-256 hashes, RSASSA-PKCS1-v1_5 with SHA-256).
    public static let supportedVersion: UInt64 = 0

    /// The start of validity.
    public let notBefore: Date
    /// The end of validity: the earlier of the CRL's own end and its signer certificate's.
    public let notAfter: Date
    /// The SHA-256 hashes of revoked SubjectPublicKeyInfos.
    public let revokedPublicKeyHashes: Set<[UInt8]>
    /// Revoked serial-number ranges (inclusive), by issuer SubjectPublicKeyInfo hash.
    public let revokedSerialRanges: [[UInt8]: [ClosedRange<UInt64>]]
    /// The certificate that signed the CRL.
    public let signer: Certificate

    /// Reads a serialized ``CrlBundle`` and checks the first CRL of the supported version in it:
    /// its signer certificate must chain to `verifier`'s anchors at `time`, its signature must
    /// verify over the exact `tbs_crl` bytes, and `time` must fall in its validity window.
    /// - Parameters:
    ///   - bytes: the serialized bundle, as carried in ``AuthResponse/crl``.
    ///   - verifier: a verifier over the CRL trust anchors.
    ///   - time: the verification time.
    /// - Throws: ``DeviceAuthError/Code/crlInvalid`` with the reason.
    public init(
        bundle bytes: [UInt8],
        verifier: CertificateChainVerifier,
        at time: Date
    ) throws(DeviceAuthError) {
        let bundle: CrlBundle
        do {
            bundle = try CrlBundle(serializedBytes: bytes)
        } catch {
            throw DeviceAuthError(.crlInvalid, reason: "the CRL bundle does not decode: \(error)")
        }
        for (index, crl) in bundle.crls.enumerated() {
            guard let tbs = try? crl.decodedTbsCrl(), (tbs.version ?? 0) == Self.supportedVersion else { continue }
            try self.init(crl: crl, tbs: tbs, index: index, verifier: verifier, at: time)
            return
        }
        throw DeviceAuthError(
            .crlInvalid,
            reason: "the CRL bundle holds no readable version-\(Self.supportedVersion) CRL (\(bundle.crls.count) CRLs)"
        )
    }

    private init(
        crl: Crl,
        tbs: TbsCrl,
        index: Int,
        verifier: CertificateChainVerifier,
        at time: Date
    ) throws(DeviceAuthError) {
        func invalid(
            _ reason: String,
            name: String? = nil,
            _ error: CertificateVerificationError? = nil
        )
            -> DeviceAuthError
        {
            DeviceAuthError(
                .crlInvalid,
                certificateName: name,
                reason: "CRL \(index): \(reason)",
                certificateError: error
            )
        }
        guard let signerDER = crl.signerCert, let tbsBytes = crl.tbsCrl, let signature = crl.signature else {
            throw invalid("signer_cert, tbs_crl or signature is missing")
        }
        let signer: Certificate
        do {
            signer = try Certificate(derEncoded: signerDER)
        } catch {
            throw invalid("the signer certificate does not parse: \(error)")
        }
        let signerName = signer.subjectCommonName ?? signer.subject
        do {
            _ = try verifier.verify(signer, at: time)
        } catch {
            throw invalid(
                "the signer certificate is not trusted: \(error.code): \(error.reason)",
                name: signerName,
                error
            )
        }
        let key: PublicKey
        do {
            key = try signer.publicKey
        } catch {
            throw invalid("the signer key is unreadable: \(error)", name: signerName)
        }
        guard key.isRSA, key.verify(signature: signature, data: tbsBytes, digest: .sha256) else {
            throw invalid("the signature over tbs_crl does not verify (RSASSA-PKCS1-v1_5, SHA-256)", name: signerName)
        }
        guard let notBeforeSeconds = tbs.notBeforeSeconds, let notAfterSeconds = tbs.notAfterSeconds,
            notBeforeSeconds <= UInt64(Int64.max), notAfterSeconds <= UInt64(Int64.max)
        else {
            throw invalid("the validity window is missing or out of range")
        }
        let notBefore = Date(timeIntervalSince1970: TimeInterval(notBeforeSeconds))
        let crlNotAfter = Date(timeIntervalSince1970: TimeInterval(notAfterSeconds))
        guard notBefore <= time, time <= crlNotAfter else {
            throw invalid("valid from \(notBefore) to \(crlNotAfter), not at \(time)")
        }
        var ranges: [[UInt8]: [ClosedRange<UInt64>]] = [:]
        for (rangeIndex, range) in tbs.revokedSerialNumberRanges.enumerated() {
            let first = range.firstSerialNumber ?? 0
            let last = range.lastSerialNumber ?? 0
            guard first <= last else {
                throw invalid("serial range \(rangeIndex) ends (\(last)) before it starts (\(first))")
            }
            ranges[range.issuerPublicKeyHash ?? [], default: []].append(first...last)
        }
        self.notBefore = notBefore
        self.notAfter = min(crlNotAfter, signer.notAfter)
        self.revokedPublicKeyHashes = Set(tbs.revokedPublicKeyHashes)
        self.revokedSerialRanges = ranges
        self.signer = signer
    }

    /// Checks that no certificate of a verified path is revoked.
    ///
    /// Each certificate (the trust anchor included) is revoked when its SubjectPublicKeyInfo hash
    /// is listed; each certificate below the anchor is also revoked when its serial number falls
    /// in a range listed under its issuer's SubjectPublicKeyInfo hash.
    /// - Parameters:
    ///   - path: the verified path, device certificate first and trust anchor last.
    ///   - time: the verification time, which must fall in this list's validity window.
    /// - Throws: ``DeviceAuthError/Code/crlCheckFailed`` naming the revoked certificate, or
    ///   ``DeviceAuthError/Code/crlInvalid`` when the list is not valid at `time`.
    public func check(_ path: [Certificate], at time: Date) throws(DeviceAuthError) {
        guard notBefore <= time, time <= notAfter else {
            throw DeviceAuthError(
                .crlInvalid,
                reason: "the CRL is valid from \(notBefore) to \(notAfter), not at \(time)"
            )
        }
        for (index, certificate) in path.enumerated().reversed() {
            let name = certificate.subjectCommonName ?? certificate.subject
            if revokedPublicKeyHashes.contains(certificate.subjectPublicKeyInfoSHA256) {
                throw DeviceAuthError(
                    .crlCheckFailed,
                    certificateName: name,
                    reason: "revoked by public-key hash (position \(index) of the path)"
                )
            }
            guard index + 1 < path.count,
                let ranges = revokedSerialRanges[path[index + 1].subjectPublicKeyInfoSHA256],
                let serial = certificate.serialNumberUInt64
            else { continue }
            if ranges.contains(where: { $0.contains(serial) }) {
                throw DeviceAuthError(
                    .crlCheckFailed,
                    certificateName: name,
                    reason: "serial number \(serial) revoked by its issuer (position \(index) of the path)"
                )
            }
        }
    }
}
