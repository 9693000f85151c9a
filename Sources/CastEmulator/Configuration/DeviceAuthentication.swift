public import CastAuth
public import CastCore
import CastNet

/// How a virtual device answers device-authentication challenges
/// (`urn:x-cast:com.google.cast.tp.deviceauth`).
///
/// By default (``generated``) a device answers as hardware does: an `AuthResponse` signed by a
/// device certificate that chains to a root generated once per process
/// (``VirtualDeviceAuthority/shared``).
public struct DeviceAuthentication: Sendable {
    /// What the answer may depend on besides the challenge.
    public struct Context: Sendable {
        /// The DER of the TLS certificate the device presents on the connection.
        public var tlsCertificateDER: [UInt8]
        /// Whether the device plays audio only (no `video_out` capability).
        public var audioOnly: Bool

        /// Creates a context.
        public init(tlsCertificateDER: [UInt8], audioOnly: Bool) {
            self.tlsCertificateDER = tlsCertificateDER
            self.audioOnly = audioOnly
        }
    }

    let answer: @Sendable (AuthChallenge, Context) -> DeviceAuthMessage

    /// Answers every challenge with the message `answer` returns.
    public init(answer: @escaping @Sendable (AuthChallenge, Context) -> DeviceAuthMessage) {
        self.answer = answer
    }

    /// Answers every challenge with the message `answer` returns, whatever the connection.
    public init(answer: @escaping @Sendable (AuthChallenge) -> DeviceAuthMessage) {
        self.answer = { challenge, _ in answer(challenge) }
    }

    /// Answers with a fixed device-auth responder: the challenge's nonce and the responder's
    /// TLS certificate signed with its key, or the responder's error.
    public static func responder(_ responder: DeviceAuthResponder) -> DeviceAuthentication {
        DeviceAuthentication { responder.respond(to: $0) }
    }

    /// Signs with `chain`: nonce ‖ DER(TLS certificate of the connection), with the audio-only
    /// device certificate on audio-only devices. An empty challenge (no nonce, no hash
    /// algorithm) gets a SHA-1 signature, as real devices give.
    public static func chain(_ chain: DeviceAuthChain) -> DeviceAuthentication {
        DeviceAuthentication { challenge, context in
            let credentials = chain.credentials(
                tlsCertificateDER: context.tlsCertificateDER,
                audioOnly: context.audioOnly
            )
            return DeviceAuthResponder(credentials: credentials).respond(to: challenge)
        }
    }

    /// Signs with the process's generated chain (``VirtualDeviceAuthority/shared``), made on
    /// first use.
    public static let generated = DeviceAuthentication { challenge, context in
        guard let chain = VirtualDeviceAuthority.shared else {
            return DeviceAuthMessage(error: AuthError(errorType: .internalError))
        }
        return DeviceAuthentication.chain(chain).answer(challenge, context)
    }

    /// Answers every challenge with `AuthError` of the given type.
    public static func error(_ errorType: AuthError.ErrorType) -> DeviceAuthentication {
        DeviceAuthentication { _ in DeviceAuthMessage(error: AuthError(errorType: errorType)) }
    }

    /// No credentials: every challenge gets `AuthError` `INTERNAL_ERROR`, as receivers without
    /// a device certificate answer (`"auth": "error"` in a fleet configuration).
    public static let unavailable = DeviceAuthentication.error(.internalError)
}

/// The device-authentication chain every virtual device of this process signs with unless
/// configured otherwise.
public enum VirtualDeviceAuthority {
    /// The chain, generated on first use (three RSA-2048 keys, once per process); `nil` only
    /// when OpenSSL cannot generate keys. Its `DeviceAuthChain.root` is what a sender trusts to
    /// accept these devices (`cast-emulator --auth-root-out FILE` writes it).
    public static let shared: DeviceAuthChain? = try? DeviceAuthChain.generate()
}

extension DeviceAuthenticationPolicy {
    /// This policy, also trusting the root the virtual devices of this process sign with
    /// (``VirtualDeviceAuthority/shared``), so that an app running a virtual device in process
    /// authenticates it without giving up authentication of real devices.
    ///
    /// ```swift
    /// options.deviceAuthentication = options.deviceAuthentication.trustingVirtualDevices()
    /// ```
    ///
    /// Unchanged when no chain could be generated (the virtual devices then answer challenges
    /// with `AuthError`, and a `.required` policy refuses them).
    public func trustingVirtualDevices() -> DeviceAuthenticationPolicy {
        guard let root = VirtualDeviceAuthority.shared?.root else { return self }
        var policy = self
        if !policy.additionalTrustAnchors.contains(root) {
            policy.additionalTrustAnchors.append(root)
        }
        return policy
    }
}
