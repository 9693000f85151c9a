// Fuzzes the Cast CRL messages and the CRL reader: the input is decoded as a CrlBundle, a
// Crl, a TbsCrl and a SerialNumberRange, and read as a revocation list trusted through the
// test CRL root at the fixture's time.
//
// Properties: for each type, decoding from an array, a slice and a non-contiguous collection
// agree and decoded values round-trip; each CRL's `tbs_crl` decodes the same through
// `decodedTbsCrl()` and directly; a revocation list that verifies was signed by the test CRL
// signer, is valid at the time given, and rejects the device path whenever it lists the
// public-key hash of a certificate in it.

import CastAuth
@testable import CastCore
import CastCrypto
import Foundation
import FuzzCastSupport
import FuzzSupport

private let fixture = AuthFixture()
private let crlVerifier: CertificateChainVerifier = {
    do {
        return try CertificateChainVerifier(trustAnchors: [fixture.crlRoot])
    } catch {
        FuzzProperty.fail("cannot build the CRL verifier: \(error)")
    }
}()

/// Checks that the fixture works before fuzzing: the valid sample CRL verifies and passes the
/// device path, and one listing the device's key hash verifies and rejects it.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: FuzzArguments, _ argv: FuzzArguments) -> CInt {
    let bundles: [(name: String, bundle: CrlBundle)]
    do {
        bundles = try AuthSamples(fixture: fixture).bundles()
    } catch {
        FuzzProperty.fail("self-test: cannot build sample CRLs: \(error)")
    }
    for (index, expected) in [(0, true), (1, false)] {
        let bytes = bundles[index].bundle.serializedBytes()
        let list = try? CastRevocationList(bundle: bytes, verifier: crlVerifier, at: AuthFixture.now)
        FuzzProperty.require(list != nil, "self-test: sample CRL \(bundles[index].name) does not verify")
        let passes = (try? list?.check(fixture.deviceChain, at: AuthFixture.now)) != nil
        FuzzProperty.require(passes == expected, "self-test: sample CRL \(bundles[index].name) checks wrongly")
        check(bytes)
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCrlBundle(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.run(start, count, check)
}

private func check(_ bytes: [UInt8]) {
    if let bundle = CrlBundle.checkRoundTrip(bytes) {
        for crl in bundle.crls {
            FuzzProperty.require(Crl.checkRoundTrip(crl.serializedBytes()) == crl, "an embedded CRL differs")
            let tbs = Result { () throws(ProtobufError) in try crl.decodedTbsCrl() }
            FuzzProperty.require(
                (try? tbs.get()) == TbsCrl.checkRoundTrip(crl.tbsCrl ?? []),
                "decodedTbsCrl() differs from decoding tbs_crl"
            )
        }
    }
    Crl.checkRoundTrip(bytes)
    TbsCrl.checkRoundTrip(bytes)
    SerialNumberRange.checkRoundTrip(bytes)

    let list: CastRevocationList
    do throws(DeviceAuthError) {
        list = try CastRevocationList(bundle: bytes, verifier: crlVerifier, at: AuthFixture.now)
    } catch {
        FuzzProperty.require(error.code == .crlInvalid, "a CRL failed with \(error.code), not crlInvalid")
        return
    }
    FuzzProperty.require(list.signer == fixture.crlSigner, "a CRL verified under an unknown signer")
    FuzzProperty.require(
        list.notBefore <= AuthFixture.now && AuthFixture.now <= list.notAfter,
        "a CRL verified outside its validity window"
    )
    let listed = fixture.deviceChain.contains {
        list.revokedPublicKeyHashes.contains($0.subjectPublicKeyInfoSHA256)
    }
    do throws(DeviceAuthError) {
        try list.check(fixture.deviceChain, at: AuthFixture.now)
        FuzzProperty.require(!listed, "a path with a listed public-key hash passed the CRL")
    } catch {
        FuzzProperty.require(error.code == .crlCheckFailed, "a CRL check failed with \(error.code)")
    }
}
