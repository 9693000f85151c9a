import CastAuth
@testable import CastCore
import CastCrypto
import Foundation
import FuzzSupport

/// The device-auth test data of `receiver/channel/` in the shared Open Screen test data:
/// a device chain (device → intermediate → root), the device's TLS certificate, the CRL root
/// and the CRL signer, with a fixed challenge and a fixed verification time.
///
/// The data directory is `CAST_TESTDATA_DIR`, else `<repo root>/../shared/testdata/openscreen-cast`.
/// A missing file stops the process: a fuzz target that runs without its fixture checks nothing.
public struct AuthFixture: Sendable {
    /// The time the test certificates are valid at (2019-12-17 00:00 UTC).
    public static let now = Date(timeIntervalSince1970: 1_576_540_800)
    /// The nonce of the fixed challenge.
    public static let nonce: [UInt8] = Array(0..<16)

    /// Device → Intermediate → "Cast Root".
    public let deviceChain: [Certificate]
    /// The device's TLS certificate, whose DER the device signs after the nonce.
    public let tlsCertificate: Certificate
    /// The trust anchor for CRL signers ("Cast CRL Root").
    public let crlRoot: Certificate
    /// The certificate that signs the test CRLs, issued by ``crlRoot``.
    public let crlSigner: Certificate

    /// The device trust anchor.
    public var root: Certificate { deviceChain[deviceChain.count - 1] }

    /// The fixed challenge, asking for SHA-256.
    public var challenge: DeviceAuthChallenge { DeviceAuthChallenge(nonce: Self.nonce, hashAlgorithm: .sha256) }

    /// Loads the fixture; stops the process when the test data is missing.
    public init() {
        deviceChain = Self.load { () throws(OpenSSLError) in
            try Certificate.certificates(pemEncoded: Self.text("device_chain.pem"))
        }
        tlsCertificate = Self.load { () throws(OpenSSLError) in try Certificate(pemEncoded: Self.text("device_tls.pem"))
        }
        crlRoot = Self.load { () throws(OpenSSLError) in try Certificate(pemEncoded: Self.text("crl_root.pem")) }
        crlSigner = Self.load { () throws(OpenSSLError) in try Certificate(pemEncoded: Self.text("crl_inter.pem")) }
        FuzzProperty.require(deviceChain.count == 3, "device_chain.pem should hold three certificates")
    }

    /// The device's private key (for generating seeds).
    public func deviceKey() -> PrivateKey {
        Self.load { () throws(OpenSSLError) in try PrivateKey(pemEncoded: Self.text("device_key.pem")) }
    }

    /// The CRL signer's private key (for generating seeds).
    public func crlSignerKey() -> PrivateKey {
        Self.load { () throws(OpenSSLError) in try PrivateKey(pemEncoded: Self.text("crl_inter_key.pem")) }
    }

    /// A policy trusting only the test device root and the test CRL root.
    public func policy(
        _ mode: DeviceAuthenticationPolicy.Mode = .required,
        crl: CRLPolicy = .optional
    ) -> DeviceAuthenticationPolicy {
        DeviceAuthenticationPolicy(
            mode: mode,
            trustsBuiltInRoots: false,
            additionalTrustAnchors: [root],
            crlPolicy: crl,
            trustsBuiltInCRLRoots: false,
            additionalCRLTrustAnchors: [crlRoot]
        )
    }

    /// The test data directory.
    public static var directory: URL {
        if let override = ProcessInfo.processInfo.environment["CAST_TESTDATA_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        // #filePath = <root>/Fuzz/Sources/FuzzCastSupport/AuthFixture.swift
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        return root.deletingLastPathComponent().appendingPathComponent("shared/testdata/openscreen-cast")
    }

    private static func text(_ name: String) -> String {
        let url = directory.appendingPathComponent("receiver/channel").appendingPathComponent(name)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            FuzzProperty.fail("cannot read \(url.path): set CAST_TESTDATA_DIR to the openscreen-cast test data")
        }
        return text
    }

    private static func load<T>(_ body: () throws(OpenSSLError) -> T) -> T {
        do {
            return try body()
        } catch {
            FuzzProperty.fail("cannot load the device-auth fixture: \(error)")
        }
    }
}
