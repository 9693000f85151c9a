import CastAuth
import CastCore

/// How a virtual device answers device-authentication challenges
/// (`urn:x-cast:com.google.cast.tp.deviceauth`).
public struct DeviceAuthentication: Sendable {
    let answer: @Sendable (AuthChallenge) -> DeviceAuthMessage

    /// Answers every challenge with the message `answer` returns.
    public init(answer: @escaping @Sendable (AuthChallenge) -> DeviceAuthMessage) {
        self.answer = answer
    }

    /// Answers with a device-auth responder: the challenge's nonce and the device's TLS
    /// certificate signed with the device key, or the responder's error.
    public static func responder(_ responder: DeviceAuthResponder) -> DeviceAuthentication {
        DeviceAuthentication { responder.respond(to: $0) }
    }

    /// Answers every challenge with `AuthError` of the given type.
    public static func error(_ errorType: AuthError.ErrorType) -> DeviceAuthentication {
        DeviceAuthentication { _ in DeviceAuthMessage(error: AuthError(errorType: errorType)) }
    }

    /// No credentials: every challenge gets `AuthError` `INTERNAL_ERROR`, as receivers without
    /// a device certificate answer.
    public static let unavailable = DeviceAuthentication.error(.internalError)
}
