import CastAuth
import CastCore
import CastCrypto
import CastNet
import CastTestSupport
import Foundation

/// The device-auth challenge/response test data of `receiver/channel/`.
struct ChannelFixture {
    let deviceKey: PrivateKey
    /// Device → Intermediate → "Cast Root".
    let deviceChain: [Certificate]
    let tlsCertificate: Certificate
    let crlRoot: Certificate
    let challengeMessage: CastMessage
    let challengeBytes: [UInt8]
    let responseBytes: [UInt8]

    /// The moment the README says to verify at.
    static let now = Date.utc(2019, 12, 17)

    init() throws {
        let directory = CastTestData.channel
        deviceKey = try PrivateKey(pemEncoded: CastTestData.text(directory + "device_key.pem"))
        deviceChain = try CastTestData.chain(directory + "device_chain.pem")
        tlsCertificate = try Certificate(pemEncoded: CastTestData.text(directory + "device_tls.pem"))
        crlRoot = try Certificate(pemEncoded: CastTestData.text(directory + "crl_root.pem"))
        challengeBytes = try CastTestData.bytes(directory + "auth_challenge.pb")
        challengeMessage = try CastMessage(serializedBytes: challengeBytes)
        responseBytes = try CastTestData.bytes(directory + "auth_response.pb")
    }

    var root: Certificate { deviceChain[deviceChain.count - 1] }

    var challenge: AuthChallenge {
        get throws {
            let payload = challengeMessage.payloadBinary ?? []
            return try DeviceAuthMessage(serializedBytes: payload).challenge ?? AuthChallenge()
        }
    }

    var nonce: [UInt8] {
        get throws { try challenge.senderNonce ?? [] }
    }

    func crl(_ name: String) throws -> [UInt8] {
        try CastTestData.bytes(CastTestData.channel + name)
    }

    func credentials(crl: [UInt8]? = nil) -> DeviceAuthResponder.Credentials {
        DeviceAuthResponder.Credentials(
            privateKey: deviceKey,
            certificateChain: deviceChain,
            tlsCertificateDER: tlsCertificate.derBytes,
            crl: crl
        )
    }

    /// A policy that trusts only the test chain's root and the test CRL root.
    func policy(
        _ mode: DeviceAuthenticationPolicy.Mode = .required,
        crl: CRLPolicy = .optional
    )
        -> DeviceAuthenticationPolicy
    {
        DeviceAuthenticationPolicy(
            mode: mode,
            trustsBuiltInRoots: false,
            additionalTrustAnchors: [root],
            crlPolicy: crl,
            trustsBuiltInCRLRoots: false,
            additionalCRLTrustAnchors: [crlRoot]
        )
    }

    /// The test response with some fields changed.
    func response(_ change: (inout AuthResponse) -> Void = { _ in }) throws -> AuthResponse {
        var response = try AuthResponse(serializedBytes: responseBytes)
        change(&response)
        return response
    }
}
