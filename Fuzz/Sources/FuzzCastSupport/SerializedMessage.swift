@testable import CastCore
import FuzzSupport

/// A protobuf message type of CastCore, seen through its public serialization API.
public protocol SerializedMessage: Hashable {
    /// Decodes a serialized message.
    init(serializedBytes bytes: some Collection<UInt8>) throws(ProtobufError)
    /// Encodes the message.
    func serializedBytes() -> [UInt8]
}

extension CastMessage: SerializedMessage {}
extension DeviceAuthMessage: SerializedMessage {}
extension AuthChallenge: SerializedMessage {}
extension AuthResponse: SerializedMessage {}
extension AuthError: SerializedMessage {}
extension CrlBundle: SerializedMessage {}
extension Crl: SerializedMessage {}
extension TbsCrl: SerializedMessage {}
extension SerialNumberRange: SerializedMessage {}

/// The result of one decoding, compared in full: value, or error code, offset and field.
private enum Decoded<Message: SerializedMessage>: Equatable {
    case value(Message)
    case failure(code: ProtobufError.Code, offset: Int, field: Int?)

    init(_ body: () throws(ProtobufError) -> Message) {
        do {
            self = .value(try body())
        } catch {
            self = .failure(code: error.code, offset: error.offset, field: error.fieldNumber)
        }
    }
}

extension SerializedMessage {
    /// The longest input also decoded from a collection without contiguous storage.
    public static var scatteredCheckLimit: Int { 512 }

    /// Decodes `bytes` through every input shape and checks the round-trip properties.
    ///
    /// The bytes are decoded from a contiguous array, from an array slice that does not start
    /// at index 0, and (up to ``scatteredCheckLimit`` bytes) from a collection without
    /// contiguous storage; the outcomes must be equal (value, or error code, offset and field
    /// number). A decoded value must re-encode to bytes that decode to an equal value and
    /// re-encode to the same bytes.
    /// - Returns: the decoded message, or `nil` when the bytes are not a valid message.
    @discardableResult
    public static func checkRoundTrip(_ bytes: [UInt8]) -> Self? {
        let direct = Decoded { () throws(ProtobufError) in try Self(serializedBytes: bytes) }
        let shifted = [0x5a] + bytes
        let slice = Decoded { () throws(ProtobufError) in try Self(serializedBytes: shifted.dropFirst()) }
        FuzzProperty.require(direct == slice, "\(Self.self): array and slice decoding differ: \(direct) / \(slice)")
        // Copying a collection without contiguous storage goes element by element through
        // unspecialized generic code: check that path on short inputs only, to keep the rate up.
        if bytes.count <= Self.scatteredCheckLimit {
            let scattered = Decoded { () throws(ProtobufError) in try Self(serializedBytes: bytes.lazy.map { $0 }) }
            FuzzProperty.require(
                direct == scattered,
                "\(Self.self): contiguous and non-contiguous decoding differ: \(direct) / \(scattered)"
            )
        }
        guard case .value(let message) = direct else { return nil }
        let encoded = message.serializedBytes()
        let again: Self
        do {
            again = try Self(serializedBytes: encoded)
        } catch {
            FuzzProperty.fail("\(Self.self): re-encoded message does not decode: \(error)")
        }
        FuzzProperty.require(again == message, "\(Self.self): decode(encode(m)) != m")
        FuzzProperty.require(again.serializedBytes() == encoded, "\(Self.self): encoding is not stable")
        return message
    }
}
