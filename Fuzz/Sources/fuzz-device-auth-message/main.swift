// Fuzzes the device-auth protobuf messages: the input is decoded as a DeviceAuthMessage,
// an AuthChallenge, an AuthResponse and an AuthError.
//
// Properties: for each type, decoding from an array, a slice and a non-contiguous collection
// agree and decoded values round-trip; the messages embedded in a DeviceAuthMessage round-trip
// on their own; a response's CRL bundle decodes the same through the response and directly.

@testable import CastCore
import FuzzCastSupport
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeviceAuthMessage(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.run(start, count) { bytes in
        if let message = DeviceAuthMessage.checkRoundTrip(bytes) {
            if let challenge = message.challenge {
                let alone = AuthChallenge.checkRoundTrip(challenge.serializedBytes())
                FuzzProperty.require(alone == challenge, "an embedded challenge does not stand alone")
            }
            if let response = message.response {
                let alone = AuthResponse.checkRoundTrip(response.serializedBytes())
                FuzzProperty.require(alone == response, "an embedded response does not stand alone")
            }
            if let error = message.error {
                let alone = AuthError.checkRoundTrip(error.serializedBytes())
                FuzzProperty.require(alone == error, "an embedded error does not stand alone")
            }
        }
        AuthChallenge.checkRoundTrip(bytes)
        AuthError.checkRoundTrip(bytes)
        if let response = AuthResponse.checkRoundTrip(bytes) {
            let bundle = Result { () throws(ProtobufError) in try response.decodedCrlBundle() }
            switch bundle {
            case .success(let bundle?):
                let direct = CrlBundle.checkRoundTrip(response.crl ?? [])
                FuzzProperty.require(direct == bundle, "the response's CRL bundle differs from a direct decoding")
            case .success(nil):
                FuzzProperty.require(response.crl == nil, "a present CRL field gave no bundle")
            case .failure:
                FuzzProperty.require(CrlBundle.checkRoundTrip(response.crl ?? []) == nil, "CRL decodings disagree")
            }
        }
    }
}
