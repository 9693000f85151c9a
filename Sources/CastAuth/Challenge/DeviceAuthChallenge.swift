public import CastCore

/// A device-auth challenge a sender has made, kept to check the reply against.
public struct DeviceAuthChallenge: Hashable, Sendable {
    /// The length of the nonce Chromium and this library send.
    public static let nonceLength = 16

    /// The random nonce the device must sign and echo.
    public let nonce: [UInt8]
    /// The hash the device is asked to sign with.
    public let hashAlgorithm: HashAlgorithm

    /// Creates a challenge with a given nonce.
    /// - Parameters:
    ///   - nonce: the nonce; use ``DeviceAuthenticator/makeChallenge()`` for a random one.
    ///   - hashAlgorithm: the hash requested; SHA-256 unless given.
    public init(nonce: [UInt8], hashAlgorithm: HashAlgorithm = .sha256) {
        self.nonce = nonce
        self.hashAlgorithm = hashAlgorithm
    }

    /// The `DeviceAuthMessage` carrying the challenge.
    public var message: DeviceAuthMessage {
        DeviceAuthMessage(challenge: AuthChallenge(senderNonce: nonce, hashAlgorithm: hashAlgorithm))
    }

    /// The message to send: binary, on the device-auth namespace, from `sender-0` to `receiver-0`.
    public var castMessage: CastMessage {
        CastMessage(
            sourceID: "sender-0",
            destinationID: "receiver-0",
            namespace: .deviceAuth,
            binary: message.serializedBytes()
        )
    }
}
