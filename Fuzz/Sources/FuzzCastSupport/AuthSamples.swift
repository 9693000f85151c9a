import CastAuth
@testable import CastCore
import CastCrypto
import Foundation

/// CRL bundles and device-auth replies signed with the test keys, for seeds and self-tests.
public struct AuthSamples {
    /// The fixture whose keys sign the samples.
    public let fixture: AuthFixture
    private let deviceKey: PrivateKey
    private let crlSignerKey: PrivateKey

    /// Loads the keys of `fixture`.
    public init(fixture: AuthFixture = AuthFixture()) {
        self.fixture = fixture
        deviceKey = fixture.deviceKey()
        crlSignerKey = fixture.crlSignerKey()
    }

    private var notBefore: UInt64 { UInt64(AuthFixture.now.timeIntervalSince1970) - 86_400 * 30 }
    private var notAfter: UInt64 { UInt64(AuthFixture.now.timeIntervalSince1970) + 86_400 * 30 }

    /// A CRL signed by the test CRL signer; `corruptSignature` flips a bit of the signature.
    public func crl(_ tbs: TbsCrl, corruptSignature: Bool = false) throws -> Crl {
        let tbsBytes = tbs.serializedBytes()
        var signature = try crlSignerKey.sign(tbsBytes, digest: .sha256)
        if corruptSignature { signature[signature.count / 2] ^= 0x01 }
        return Crl(tbsCrl: tbsBytes, signerCert: fixture.crlSigner.derBytes, signature: signature)
    }

    /// Named CRL bundles: the first is valid and revokes nothing in the device's path; then
    /// come bundles revoking the device or its issuer, and invalid ones.
    public func bundles() throws -> [(name: String, bundle: CrlBundle)] {
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
    public func response(
        hash: HashAlgorithm,
        crl: [UInt8]? = nil,
        nonce: [UInt8] = AuthFixture.nonce
    ) -> DeviceAuthMessage {
        let credentials = DeviceAuthResponder.Credentials(
            privateKey: deviceKey,
            certificateChain: fixture.deviceChain,
            tlsCertificateDER: fixture.tlsCertificate.derBytes,
            crl: crl
        )
        let challenge = AuthChallenge(senderNonce: nonce, hashAlgorithm: hash)
        return DeviceAuthResponder(credentials: credentials).respond(to: challenge)
    }
}
