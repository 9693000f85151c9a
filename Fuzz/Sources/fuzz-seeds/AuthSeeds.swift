import CastAuth
@testable import CastCore
import CastCrypto
import CastNet
import FuzzCastSupport

/// Seeds of the device-auth targets, built from ``AuthSamples``.
struct AuthSeeds {
    let samples = AuthSamples()
    var fixture: AuthFixture { samples.fixture }

    func bundles() throws -> [(name: String, bundle: CrlBundle)] { try samples.bundles() }

    func response(hash: HashAlgorithm, crl: [UInt8]? = nil, nonce: [UInt8] = AuthFixture.nonce) -> DeviceAuthMessage {
        samples.response(hash: hash, crl: crl, nonce: nonce)
    }

    /// Replies to the fixture's challenge, as the `fuzz-device-auth` target reads them.
    func replySeeds() throws -> SeedSet {
        var set = SeedSet(target: "device-auth")
        set.add("sha256", response(hash: .sha256).serializedBytes())
        set.add("sha1", response(hash: .sha1).serializedBytes())
        for (name, bundle) in try bundles() {
            set.add("sha256-crl-\(name)", response(hash: .sha256, crl: bundle.serializedBytes()).serializedBytes())
        }
        set.add("wrong-nonce", response(hash: .sha256, nonce: Array(repeating: 7, count: 16)).serializedBytes())
        set.add(
            "auth-error",
            DeviceAuthMessage(error: AuthError(errorType: .signatureAlgorithmUnavailable)).serializedBytes()
        )
        set.add("challenge", fixture.challenge.message.serializedBytes())
        return set
    }

    /// Device-auth protobuf messages, as the `fuzz-device-auth-message` target reads them.
    func messageSeeds() throws -> SeedSet {
        var set = SeedSet(target: "device-auth-message")
        let response = self.response(hash: .sha256, crl: try bundles()[0].bundle.serializedBytes())
        set.add("message-response", response.serializedBytes())
        set.add("message-challenge", fixture.challenge.message.serializedBytes())
        set.add("message-challenge-defaults", DeviceAuthMessage(challenge: AuthChallenge()).serializedBytes())
        set.add("message-error", DeviceAuthMessage(error: AuthError(errorType: .noTLS)).serializedBytes())
        set.add(
            "message-all-three",
            DeviceAuthMessage(
                challenge: AuthChallenge(signatureAlgorithm: .rsassaPSS),
                response: AuthResponse(signature: [1], clientAuthCertificate: [2]),
                error: AuthError(errorType: .internalError)
            ).serializedBytes()
        )
        if let alone = response.response {
            set.add("auth-response", alone.serializedBytes())
        }
        set.add("auth-challenge", AuthChallenge(senderNonce: AuthFixture.nonce, hashAlgorithm: .sha1).serializedBytes())
        set.add("auth-error", AuthError(errorType: .signatureAlgorithmUnavailable).serializedBytes())
        return set
    }

    /// CRL bundles and their parts, as the `fuzz-crl-bundle` target reads them.
    func crlSeeds() throws -> SeedSet {
        var set = SeedSet(target: "crl-bundle")
        let bundles = try bundles()
        for (name, bundle) in bundles {
            set.add("bundle-\(name)", bundle.serializedBytes())
        }
        if let crl = bundles[0].bundle.crls.first {
            set.add("crl", crl.serializedBytes())
            set.add("tbs-crl", crl.tbsCrl ?? [])
        }
        set.add(
            "serial-number-range",
            SerialNumberRange(
                issuerPublicKeyHash: fixture.deviceChain[1].subjectPublicKeyInfoSHA256,
                firstSerialNumber: 1,
                lastSerialNumber: UInt64.max
            ).serializedBytes()
        )
        return set
    }
}
