public import CastCore
public import CastCrypto

/// The device side of Cast device authentication: answers a sender's challenge.
///
/// The answer signs the sender nonce followed by the DER of the device's TLS certificate with
/// the device key (RSASSA-PKCS1-v1_5, with the hash the challenge asks for, SHA-1 by default),
/// and carries the device certificate, its intermediates, the algorithms, the echoed nonce and
/// the CRL bundle. RSASSA-PKCS1-v1_5 is deterministic, so equal inputs give equal bytes.
public struct DeviceAuthResponder: Sendable {
    /// What a device proves its identity with.
    public struct Credentials: Sendable {
        /// The private key of the device certificate.
        public var privateKey: PrivateKey
        /// The device certificate followed by its intermediates. A trailing self-issued root,
        /// which a verifier must already hold, is not sent.
        public var certificateChain: [Certificate]
        /// The DER of the TLS certificate the device presents on this connection.
        public var tlsCertificateDER: [UInt8]
        /// A serialized ``CrlBundle`` to attach; an empty field is sent when `nil`.
        public var crl: [UInt8]?

        /// Creates credentials.
        public init(
            privateKey: PrivateKey,
            certificateChain: [Certificate],
            tlsCertificateDER: [UInt8],
            crl: [UInt8]? = nil
        ) {
            self.privateKey = privateKey
            self.certificateChain = certificateChain
            self.tlsCertificateDER = tlsCertificateDER
            self.crl = crl
        }
    }

    /// The credentials; `nil` makes every answer an `INTERNAL_ERROR`.
    public var credentials: Credentials?
    /// An error to answer every challenge with, for testing senders.
    public var forcedError: AuthError.ErrorType?

    /// Creates a responder.
    /// - Parameters:
    ///   - credentials: the device's key, chain and TLS certificate.
    ///   - forcedError: when set, every challenge is answered with this `AuthError`.
    public init(credentials: Credentials?, forcedError: AuthError.ErrorType? = nil) {
        self.credentials = credentials
        self.forcedError = forcedError
    }

    /// Answers a challenge with a response or an error.
    ///
    /// A signature algorithm other than unspecified or RSASSA-PKCS1-v1_5, or a hash other than
    /// SHA-1 or SHA-256, gets `SIGNATURE_ALGORITHM_UNAVAILABLE`; missing credentials or a failed
    /// signature get `INTERNAL_ERROR`.
    public func respond(to challenge: AuthChallenge) -> DeviceAuthMessage {
        if let forcedError { return DeviceAuthMessage(error: AuthError(errorType: forcedError)) }
        let signatureAlgorithm = challenge.effectiveSignatureAlgorithm
        guard signatureAlgorithm == .unspecified || signatureAlgorithm == .rsassaPKCS1v15 else {
            return DeviceAuthMessage(error: AuthError(errorType: .signatureAlgorithmUnavailable))
        }
        let hashAlgorithm = challenge.effectiveHashAlgorithm
        let digest: DigestAlgorithm
        switch hashAlgorithm {
        case .sha1: digest = .sha1
        case .sha256: digest = .sha256
        default: return DeviceAuthMessage(error: AuthError(errorType: .signatureAlgorithmUnavailable))
        }
        guard let credentials, let deviceCertificate = credentials.certificateChain.first else {
            return DeviceAuthMessage(error: AuthError(errorType: .internalError))
        }
        let nonce = challenge.senderNonce ?? []
        guard let signature = try? credentials.privateKey.sign(nonce + credentials.tlsCertificateDER, digest: digest)
        else {
            return DeviceAuthMessage(error: AuthError(errorType: .internalError))
        }
        var intermediates = Array(credentials.certificateChain.dropFirst())
        if let last = intermediates.last, last.subject == last.issuer {
            intermediates.removeLast()
        }
        let response = AuthResponse(
            signature: signature,
            clientAuthCertificate: deviceCertificate.derBytes,
            intermediateCertificates: intermediates.map(\.derBytes),
            signatureAlgorithm: .rsassaPKCS1v15,
            senderNonce: challenge.senderNonce,
            hashAlgorithm: hashAlgorithm,
            crl: credentials.crl ?? []
        )
        return DeviceAuthMessage(response: response)
    }

    /// Answers a `CastMessage` that carries a challenge.
    /// - Parameter message: a message received on the device-auth namespace.
    /// - Returns: the reply, from the message's destination back to its source; `nil` when the
    ///   message is not a binary device-auth message holding only a challenge (such messages are
    ///   ignored, as receivers do).
    public func reply(to message: CastMessage) -> CastMessage? {
        guard message.namespace == .deviceAuth, message.payloadType == .binary,
            let payload = message.payloadBinary,
            let decoded = try? DeviceAuthMessage(serializedBytes: payload),
            let challenge = decoded.challenge, decoded.response == nil, decoded.error == nil
        else { return nil }
        return CastMessage(
            sourceID: message.destinationID,
            destinationID: message.sourceID,
            namespace: .deviceAuth,
            binary: respond(to: challenge).serializedBytes()
        )
    }
}
