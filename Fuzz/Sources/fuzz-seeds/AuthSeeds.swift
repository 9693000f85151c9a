import CastAuth
import CastCore
import CastNet
import Foundation
import FuzzCastSupport

/// Device-auth messages, CRL bundles and replies built from the test device's key and chain.
struct AuthSeeds {
    let fixture = AuthFixture()
    let deviceKey: PrivateKey
    let crlSignerKey: PrivateKey

    init() {
        deviceKey = fixture.deviceKey()
        crlSignerKey = fixture.crlSignerKey()
    }

    private var notBefore: UInt64 { UInt64(AuthFixture.now.timeIntervalSince1970) - 86_400 * 30 }
    private var notAfter: UInt64 { UInt64(AuthFixture.now.timeIntervalSince1970) + 86_400 * 30 }

    /// A CRL signed by the test CRL signer; `corruptSignature` flips a bit of the signature.
    func crl(_ tbs: TbsCrl, corruptSignature: Bool = false) throws -> Crl {
        let tbsBytes = tbs.serializedBytes()
        var signature = try crlSignerKey.sign(tbsBytes, digest: .sha256)
        if corruptSignature { signature[signature.count / 2] ^= 0x01 }
        return Crl(tbsCrl: tbsBytes, signerCert: fixture.crlSigner.derBytes, signature: signature)
    }

    /// Named CRL bundles: valid, revoking the device or its issuer, and invalid ones.
    func bundles() throws -> [(name: String, bundle: CrlBundle)] {
        let device = fixture.deviceChain[0]
        let intermediate = fixture.deviceChain[1]
        let root = fixture.deviceChain[2]
        let unrelatedHash = [UInt8](repeating: 0xab, count: 32)
        let serial = device.serialNumberUInt64 ?? 1
        let intermediateSerial = intermediate.serialNumberUInt64 ?? 1
        func tbs(hashes: [[UInt8]] = [], ranges: [SerialNumberRange] = [], version: UInt64? = nil) -> TbsCrl {
            TbsCrl(
                version: version,
                notBeforeSeconds: notBefore,
                notAfterSeconds: notAfter,
                revokedPublicKeyHashes: hashes,
                revokedSerialNumberRanges: ranges
            )
        }
        let unrelatedRange = SerialNumberRange(
            issuerPublicKeyHash: unrelatedHash,
            firstSerialNumber: 10,
            lastSerialNumber: 20
        )
        var expired = tbs()
        expired.notAfterSeconds = notBefore
        return [
            ("good", CrlBundle(crls: [try crl(tbs(hashes: [unrelatedHash], ranges: [unrelatedRange]))])),
            ("device-hash-revoked", CrlBundle(crls: [try crl(tbs(hashes: [device.subjectPublicKeyInfoSHA256]))])),
            (
                "device-serial-revoked",
                CrlBundle(crls: [
                    try crl(
                        tbs(ranges: [
                            SerialNumberRange(
                                issuerPublicKeyHash: intermediate.subjectPublicKeyInfoSHA256,
                                firstSerialNumber: serial,
                                lastSerialNumber: serial
                            )
                        ])
                    )
                ])
            ),
            (
                "issuer-hash-revoked",
                CrlBundle(crls: [try crl(tbs(hashes: [intermediate.subjectPublicKeyInfoSHA256]))])
            ),
            (
                "issuer-serial-revoked",
                CrlBundle(crls: [
                    try crl(
                        tbs(ranges: [
                            SerialNumberRange(
                                issuerPublicKeyHash: root.subjectPublicKeyInfoSHA256,
                                firstSerialNumber: intermediateSerial,
                                lastSerialNumber: intermediateSerial &+ 5
                            )
                        ])
                    )
                ])
            ),
            ("bad-signature", CrlBundle(crls: [try crl(tbs(), corruptSignature: true)])),
            (
                "bad-signer",
                CrlBundle(crls: [
                    Crl(
                        tbsCrl: tbs().serializedBytes(),
                        signerCert: device.derBytes,
                        signature: try deviceKey.sign(tbs().serializedBytes(), digest: .sha256)
                    )
                ])
            ),
            ("expired", CrlBundle(crls: [try crl(expired)])),
            (
                "future-version-then-good",
                CrlBundle(crls: [try crl(tbs(version: 1)), try crl(tbs(hashes: [unrelatedHash], version: 0))])
            ),
            ("empty-bundle", CrlBundle()),
        ]
    }

    /// A response to the fixture's challenge, signed with `hash`.
    func response(hash: HashAlgorithm, crl: [UInt8]? = nil, nonce: [UInt8] = AuthFixture.nonce) -> DeviceAuthMessage {
        let credentials = DeviceAuthResponder.Credentials(
            privateKey: deviceKey,
            certificateChain: fixture.deviceChain,
            tlsCertificateDER: fixture.tlsCertificate.derBytes,
            crl: crl
        )
        let challenge = AuthChallenge(senderNonce: nonce, hashAlgorithm: hash)
        return DeviceAuthResponder(credentials: credentials).respond(to: challenge)
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
