// Fuzzes the sender's verification of a device-auth reply: the input is the binary payload of
// the reply (a serialized DeviceAuthMessage) to a fixed challenge, checked against the test
// device root and CRL root, the test TLS certificate and a fixed time.
//
// Properties: a reply authenticates only with one of the two valid signatures (SHA-1 or
// SHA-256 over nonce and TLS certificate) and the test device certificate; requiring a CRL
// never accepts what an optional CRL rejects; revocation counts as checked only when the reply
// carries a CRL; "if supported" accepts unauthenticated exactly the replies holding an
// AuthError and otherwise agrees with "required"; verifying the payload inside a CastMessage
// gives the same result as verifying it directly.

import CastAuth
@testable import CastCore
import CastCrypto
import Foundation
import FuzzCastSupport
import FuzzSupport

private let fixture = AuthFixture()
private let challenge = fixture.challenge
private let tlsDER = fixture.tlsCertificate.derBytes

private func authenticator(_ policy: DeviceAuthenticationPolicy) -> DeviceAuthenticator {
    do {
        return try DeviceAuthenticator(policy: policy)
    } catch {
        FuzzProperty.fail("cannot build an authenticator: \(error)")
    }
}

private let optionalCRL = authenticator(fixture.policy(.required, crl: .optional))
private let requiredCRL = authenticator(fixture.policy(.required, crl: .required))
private let ifSupported = authenticator(fixture.policy(.ifSupported, crl: .optional))

/// The only signatures that may authenticate: the device key's, over nonce + TLS certificate.
private let validSignatures: Set<[UInt8]> = {
    let key = fixture.deviceKey()
    do {
        return [
            try key.sign(AuthFixture.nonce + tlsDER, digest: .sha1),
            try key.sign(AuthFixture.nonce + tlsDER, digest: .sha256),
        ]
    } catch {
        FuzzProperty.fail("cannot sign with the device key: \(error)")
    }
}()

private func verify(
    _ authenticator: DeviceAuthenticator,
    _ payload: [UInt8]
) -> Result<DeviceAuthenticationResult, DeviceAuthError> {
    Result { () throws(DeviceAuthError) in
        try authenticator.verify(replyPayload: payload, to: challenge, peerCertificateDER: tlsDER, at: AuthFixture.now)
    }
}

/// Checks that the fixture works before fuzzing: valid replies authenticate, a revoked device
/// does not, and no property fails on them. Without this, a broken fixture would make every
/// reply fail and every property hold vacuously.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: FuzzArguments, _ argv: FuzzArguments) -> CInt {
    let samples = AuthSamples(fixture: fixture)
    do {
        let bundles = try samples.bundles()
        let good = bundles[0].bundle.serializedBytes()
        let revoked = bundles[1].bundle.serializedBytes()
        let withCRL = samples.response(hash: .sha256, crl: good).serializedBytes()
        let withoutCRL = samples.response(hash: .sha1).serializedBytes()
        let revokedReply = samples.response(hash: .sha256, crl: revoked).serializedBytes()
        for authenticator in [optionalCRL, requiredCRL, ifSupported] {
            let result = try? verify(authenticator, withCRL).get()
            FuzzProperty.require(result?.revocationStatus == .checked, "self-test: a valid reply with a CRL failed")
            FuzzProperty.require((try? verify(authenticator, revokedReply).get()) == nil, "self-test: revoked passed")
        }
        FuzzProperty.require((try? verify(optionalCRL, withoutCRL).get())?.isAuthenticated == true, "self-test: SHA-1")
        FuzzProperty.require((try? verify(requiredCRL, withoutCRL).get()) == nil, "self-test: missing CRL passed")
        for reply in [withCRL, withoutCRL, revokedReply] {
            check(reply)
        }
    } catch {
        FuzzProperty.fail("self-test: cannot build sample replies: \(error)")
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeviceAuth(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.run(start, count, check)
}

private func check(_ payload: [UInt8]) {
    let message = try? DeviceAuthMessage(serializedBytes: payload)
    let optional = verify(optionalCRL, payload)
    let required = verify(requiredCRL, payload)
    let lenient = verify(ifSupported, payload)

    for result in [optional, required] {
        guard case .success(let outcome) = result else { continue }
        guard let device = outcome.device, let response = message?.response else {
            FuzzProperty.fail("mode required accepted a reply without authenticating it")
        }
        FuzzProperty.require(message?.error == nil, "a reply holding an AuthError authenticated")
        FuzzProperty.require(validSignatures.contains(response.signature), "a forged signature authenticated")
        FuzzProperty.require(device.certificate == fixture.deviceChain[0], "an unknown device authenticated")
        FuzzProperty.require(
            outcome.revocationStatus == .notChecked || response.crl?.isEmpty == false,
            "revocation counted as checked without a CRL"
        )
    }
    if case .success(let strict) = required {
        FuzzProperty.require(
            (try? optional.get()) == strict,
            "a required CRL accepted what an optional CRL did not"
        )
        FuzzProperty.require(strict.revocationStatus == .checked, "a required CRL was not checked")
    }
    if case .failure(let error) = optional, message?.error != nil {
        FuzzProperty.require(error.code == .authenticationErrorReceived, "an AuthError reply failed with \(error)")
    }

    switch lenient {
    case .success(let outcome) where !outcome.isAuthenticated:
        FuzzProperty.require(message?.error != nil, "mode ifSupported accepted a reply without an AuthError")
    case .success(let outcome):
        FuzzProperty.require((try? optional.get()) == outcome, "modes ifSupported and required disagree")
    case .failure(let error):
        FuzzProperty.require(message?.error == nil, "mode ifSupported rejected an AuthError reply")
        if case .failure(let strictError) = optional {
            FuzzProperty.require(strictError == error, "modes fail differently: \(error) / \(strictError)")
        } else {
            FuzzProperty.fail("mode ifSupported rejected what mode required accepted")
        }
    }

    // The CastMessage entry point adds only the envelope checks.
    let envelope = CastMessage(
        sourceID: "receiver-0",
        destinationID: "sender-0",
        namespace: .deviceAuth,
        binary: payload
    )
    let wrapped = Result { () throws(DeviceAuthError) in
        try optionalCRL.verify(reply: envelope, to: challenge, peerCertificateDER: tlsDER, at: AuthFixture.now)
    }
    switch (wrapped, optional) {
    case (.success(let a), .success(let b)):
        FuzzProperty.require(a == b, "the CastMessage entry point authenticated differently")
    case (.failure(let a), .failure(let b)):
        FuzzProperty.require(a == b, "the CastMessage entry point failed differently: \(a) / \(b)")
    default:
        FuzzProperty.fail("the CastMessage entry point disagrees with the payload entry point")
    }
}
