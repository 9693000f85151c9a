public import CastCore
import CastCrypto

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The sender side of Cast device authentication, free of I/O.
///
/// A session calls ``makeChallenge()``, sends ``DeviceAuthChallenge/castMessage`` right after
/// the TLS handshake, and passes the device's reply to
/// ``verify(reply:to:peerCertificateDER:at:)`` together with the DER of the TLS certificate the
/// device presented and the current time. When no reply comes in time it calls
/// ``timedOut(_:)``.
///
/// Verification follows Chromium: the TLS certificate must be valid now and for at most four
/// more days; the echoed nonce must match; the device certificate must chain to a trusted root
/// and pass revocation per the CRL policy; and its key must have signed the nonce followed by
/// the TLS certificate's DER with RSASSA-PKCS1-v1_5 and the hash the response names.
public struct DeviceAuthenticator: Sendable {
    /// The longest remaining validity accepted for the device's TLS certificate.
    public static let maximumTLSCertificateLifetime: TimeInterval = 4 * 86_400

    /// The policy in force.
    public let policy: DeviceAuthenticationPolicy
    private let certificateVerifier: DeviceCertificateVerifier
    private let crlVerifier: CertificateChainVerifier

    /// Creates an authenticator.
    /// - Parameter policy: trust anchors, CRL policy and mode.
    /// - Throws: ``DeviceAuthError`` when the trust anchors cannot be loaded.
    public init(policy: DeviceAuthenticationPolicy) throws(DeviceAuthError) {
        self.policy = policy
        certificateVerifier = try DeviceCertificateVerifier(trustAnchors: policy.trustAnchors)
        do {
            crlVerifier = try CertificateChainVerifier(trustAnchors: policy.crlTrustAnchors)
        } catch {
            throw DeviceAuthError(.crlInvalid, reason: "cannot load CRL trust anchors: \(error)")
        }
    }

    /// Whether a challenge should be sent at all (the mode is not ``DeviceAuthenticationPolicy/Mode/off``).
    public var sendsChallenge: Bool { policy.mode != .off }

    /// The result to use when the policy is off.
    public var resultWithoutChallenge: DeviceAuthenticationResult {
        .unauthenticated("device authentication is off")
    }

    /// Makes a challenge with 16 fresh random bytes of nonce, asking for SHA-256.
    /// - Throws: ``DeviceAuthError/Code/deviceAuthenticationFailure`` when no random bytes are available.
    public func makeChallenge() throws(DeviceAuthError) -> DeviceAuthChallenge {
        do {
            return DeviceAuthChallenge(nonce: try SecureRandom.bytes(count: DeviceAuthChallenge.nonceLength))
        } catch {
            throw DeviceAuthError(.deviceAuthenticationFailure, reason: "cannot draw a nonce: \(error)")
        }
    }

    /// Verifies the device's reply to a challenge.
    /// - Parameters:
    ///   - reply: the `CastMessage` received on the device-auth namespace.
    ///   - challenge: the challenge sent.
    ///   - peerCertificateDER: the DER of the TLS certificate the device presented.
    ///   - now: the current time.
    /// - Returns: the result; unauthenticated only under ``DeviceAuthenticationPolicy/Mode/ifSupported``
    ///   when the device answered with an `AuthError`.
    /// - Throws: ``DeviceAuthError`` naming the failed check.
    public func verify(
        reply: CastMessage,
        to challenge: DeviceAuthChallenge,
        peerCertificateDER: [UInt8],
        at now: Date
    ) throws(DeviceAuthError) -> DeviceAuthenticationResult {
        guard reply.namespace == .deviceAuth else {
            throw DeviceAuthError(
                .messageParseFailure,
                reason: "reply on namespace \(reply.namespace), not device auth"
            )
        }
        guard reply.payloadType == .binary, let payload = reply.payloadBinary else {
            throw DeviceAuthError(.messageParseFailure, reason: "reply payload is not binary")
        }
        return try verify(replyPayload: payload, to: challenge, peerCertificateDER: peerCertificateDER, at: now)
    }

    /// Verifies a serialized `DeviceAuthMessage` reply.
    /// - Parameters: as ``verify(reply:to:peerCertificateDER:at:)``, with the binary payload.
    /// - Returns: as ``verify(reply:to:peerCertificateDER:at:)``.
    /// - Throws: ``DeviceAuthError`` naming the failed check.
    public func verify(
        replyPayload: [UInt8],
        to challenge: DeviceAuthChallenge,
        peerCertificateDER: [UInt8],
        at now: Date
    ) throws(DeviceAuthError) -> DeviceAuthenticationResult {
        let message: DeviceAuthMessage
        do {
            message = try DeviceAuthMessage(serializedBytes: replyPayload)
        } catch {
            throw DeviceAuthError(.messageParseFailure, reason: "the reply does not decode: \(error)")
        }
        if let error = message.error {
            if policy.mode == .ifSupported {
                return .unauthenticated("the device answered with AuthError \(error.errorType)")
            }
            throw DeviceAuthError(.authenticationErrorReceived, reason: "the device answered \(error.errorType)")
        }
        guard let response = message.response else {
            if message.challenge != nil {
                throw DeviceAuthError(.challengeReceivedFailure, reason: "the device sent a challenge, not a response")
            }
            throw DeviceAuthError(.messageParseFailure, reason: "the reply has neither response nor error")
        }
        return try verify(response: response, to: challenge, peerCertificateDER: peerCertificateDER, at: now)
    }

    /// Verifies a decoded `AuthResponse`.
    /// - Parameters: as ``verify(reply:to:peerCertificateDER:at:)``, with the response.
    /// - Returns: the authenticated result.
    /// - Throws: ``DeviceAuthError`` naming the failed check.
    public func verify(
        response: AuthResponse,
        to challenge: DeviceAuthChallenge,
        peerCertificateDER: [UInt8],
        at now: Date
    ) throws(DeviceAuthError) -> DeviceAuthenticationResult {
        guard !response.signature.isEmpty else {
            throw DeviceAuthError(.malformedAuthenticationResponse, reason: "the response has an empty signature")
        }
        guard !response.clientAuthCertificate.isEmpty else {
            throw DeviceAuthError(.malformedAuthenticationResponse, reason: "the response has no device certificate")
        }
        let algorithm = response.effectiveSignatureAlgorithm
        guard algorithm == .rsassaPKCS1v15 || algorithm == .unspecified else {
            throw DeviceAuthError(
                .deviceCapabilityNotSupported,
                reason: "signature algorithm \(algorithm) is not supported"
            )
        }
        let digest: DigestAlgorithm
        switch response.effectiveHashAlgorithm {
        case .sha1: digest = .sha1
        case .sha256: digest = .sha256
        default:
            throw DeviceAuthError(
                .deviceCapabilityNotSupported,
                reason: "hash algorithm \(response.effectiveHashAlgorithm) is not supported"
            )
        }

        try Self.checkTLSCertificate(peerCertificateDER, at: now)

        guard let echoed = response.senderNonce, echoed == challenge.nonce else {
            throw DeviceAuthError(
                .deviceAuthenticationFailure,
                reason: response.senderNonce == nil
                    ? "the response does not echo the sender nonce"
                    : "the echoed sender nonce differs from the one sent"
            )
        }

        let device = try certificateVerifier.verify(
            deviceCertificateDER: response.clientAuthCertificate,
            intermediatesDER: response.intermediateCertificates,
            at: now
        )
        let revocation = try checkRevocation(of: device, crl: response.crl, at: now)

        let key: PublicKey
        do {
            key = try device.certificate.publicKey
        } catch {
            throw DeviceAuthError(.malformedClientCertificate, certificateName: device.commonName, reason: "\(error)")
        }
        guard key.verify(signature: response.signature, data: challenge.nonce + peerCertificateDER, digest: digest)
        else {
            throw DeviceAuthError(
                .deviceAuthenticationFailure,
                certificateName: device.commonName,
                reason: "the signature over the nonce and TLS certificate does not verify (\(digest))"
            )
        }
        return .authenticated(device, revocation: revocation)
    }

    /// The outcome when the device did not answer the challenge in time.
    /// - Parameter challenge: the challenge that went unanswered.
    /// - Returns: an unauthenticated result under ``DeviceAuthenticationPolicy/Mode/ifSupported``.
    /// - Throws: ``DeviceAuthError/Code/timeoutFailure`` under ``DeviceAuthenticationPolicy/Mode/required``.
    public func timedOut(_ challenge: DeviceAuthChallenge) throws(DeviceAuthError) -> DeviceAuthenticationResult {
        guard policy.mode == .ifSupported else {
            throw DeviceAuthError(.timeoutFailure, reason: "the device did not answer the challenge in time")
        }
        return .unauthenticated("the device did not answer the challenge in time")
    }

    /// Checks the TLS certificate a device presented: readable, valid at `now`, and valid for at
    /// most ``maximumTLSCertificateLifetime`` after `now`.
    /// - Throws: ``DeviceAuthError/Code/sslCertificateNotTrusted``.
    public static func checkTLSCertificate(_ der: [UInt8], at now: Date) throws(DeviceAuthError) {
        let certificate: Certificate
        do {
            certificate = try Certificate(derEncoded: der)
        } catch {
            throw DeviceAuthError(.sslCertificateNotTrusted, reason: "the TLS certificate does not parse: \(error)")
        }
        let name = certificate.subjectCommonName ?? certificate.subject
        if certificate.notBefore > now {
            throw DeviceAuthError(
                .sslCertificateNotTrusted,
                certificateName: name,
                reason: "the TLS certificate is not valid before \(certificate.notBefore)"
            )
        }
        if certificate.notAfter < now {
            throw DeviceAuthError(
                .sslCertificateNotTrusted,
                certificateName: name,
                reason: "the TLS certificate expired at \(certificate.notAfter)"
            )
        }
        if certificate.notAfter.timeIntervalSince(now) > maximumTLSCertificateLifetime {
            throw DeviceAuthError(
                .sslCertificateNotTrusted,
                certificateName: name,
                reason: "the TLS certificate is valid until \(certificate.notAfter), more than 4 days from now"
            )
        }
    }

    private func checkRevocation(
        of device: VerifiedDeviceCertificate,
        crl: [UInt8]?,
        at now: Date
    ) throws(DeviceAuthError) -> DeviceAuthenticationResult.RevocationStatus {
        if policy.crlPolicy == .none { return .notChecked }
        guard let crl, !crl.isEmpty else {
            if policy.crlPolicy == .required {
                throw DeviceAuthError(
                    .crlInvalid,
                    certificateName: device.commonName,
                    reason: "a CRL is required and the device sent none"
                )
            }
            return .notChecked
        }
        let list: CastRevocationList
        do {
            list = try CastRevocationList(bundle: crl, verifier: crlVerifier, at: now)
        } catch {
            if policy.crlPolicy == .required { throw error }
            return .notChecked
        }
        try list.check(device.path, at: now)
        return .checked
    }
}
