/// A receiver's refusal to answer an ``AuthChallenge`` (`AuthError`).
///
/// This is a wire message, not a Swift `Error`.
public struct AuthError: Hashable, Sendable {
    /// The reason a receiver gives (`AuthError.ErrorType`).
    ///
    /// Values a peer sends that this type has no constant for are kept as they are.
    public struct ErrorType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The enum value on the wire.
        public var rawValue: Int32

        /// Creates an error type from its wire value.
        public init(rawValue: Int32) {
            self.rawValue = rawValue
        }

        /// `INTERNAL_ERROR` (0): the receiver could not sign, e.g. it has no credentials.
        public static let internalError = ErrorType(rawValue: 0)
        /// `NO_TLS` (1): the channel is not running over TLS.
        public static let noTLS = ErrorType(rawValue: 1)
        /// `SIGNATURE_ALGORITHM_UNAVAILABLE` (2): the requested signature or hash
        /// algorithm is not supported.
        public static let signatureAlgorithmUnavailable = ErrorType(rawValue: 2)

        public var description: String {
            switch rawValue {
            case 0: "INTERNAL_ERROR"
            case 1: "NO_TLS"
            case 2: "SIGNATURE_ALGORITHM_UNAVAILABLE"
            default: "ErrorType(\(rawValue))"
            }
        }
    }

    /// Field 1, `error_type` (required).
    public var errorType: ErrorType
    /// Raw bytes of fields this type does not know, re-emitted after the known fields.
    public var unknownFields: [UInt8] = []

    /// Creates an error message.
    public init(errorType: ErrorType) {
        self.errorType = errorType
    }

    /// Decodes a serialized `AuthError`.
    /// - Throws: ``ProtobufError`` when the bytes are not a valid `AuthError`, including
    ///   when `error_type` is missing.
    public init(serializedBytes bytes: some Collection<UInt8>) throws(ProtobufError) {
        try self.init(decoding: bytes)
    }

    /// Returns the protobuf encoding of the error.
    public func serializedBytes() -> [UInt8] { encoded() }
}

extension AuthError: ProtobufFieldDecodable {
    package static var protobufName: StaticString { "AuthError" }

    package static var empty: AuthError { AuthError(errorType: .internalError) }
    package static var requiredFields: KeyValuePairs<Int, StaticString> { [1: "error_type"] }

    package mutating func readField(
        _ field: ProtobufField,
        from reader: inout ProtobufReader
    ) throws(ProtobufError) -> Bool {
        switch field.number {
        case 1:
            errorType = ErrorType(rawValue: try reader.readInt32(field, name: "error_type"))
        default:
            return false
        }
        return true
    }

    package var serializedSize: Int {
        ProtobufSize.int32Field(1, errorType.rawValue) + unknownFields.count
    }

    package func write(to writer: inout ProtobufWriter) {
        writer.writeInt32Field(1, errorType.rawValue)
        writer.writeRaw(unknownFields)
    }
}
