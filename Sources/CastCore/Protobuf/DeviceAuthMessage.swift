/// The binary payload of the `urn:x-cast:com.google.cast.tp.deviceauth` namespace
/// (`DeviceAuthMessage`).
///
/// A sender sends one with a ``challenge``; the receiver answers with a ``response`` or
/// an ``error``.
public struct DeviceAuthMessage: Hashable, Sendable {
    /// Field 1, `challenge`.
    public var challenge: AuthChallenge?
    /// Field 2, `response`.
    public var response: AuthResponse?
    /// Field 3, `error`.
    public var error: AuthError?
    /// Raw bytes of fields this type does not know, re-emitted after the known fields.
    public var unknownFields: [UInt8] = []

    /// Creates a message.
    public init(challenge: AuthChallenge? = nil, response: AuthResponse? = nil, error: AuthError? = nil) {
        self.challenge = challenge
        self.response = response
        self.error = error
    }

    /// Decodes a serialized `DeviceAuthMessage`.
    /// - Throws: ``ProtobufError`` when the bytes, or an embedded message, are not valid.
    public init(serializedBytes bytes: some Collection<UInt8>) throws(ProtobufError) {
        try self.init(decoding: bytes)
    }

    /// Returns the protobuf encoding of the message.
    public func serializedBytes() -> [UInt8] { encoded() }
}

extension DeviceAuthMessage: ProtobufFieldDecodable {
    package static var protobufName: StaticString { "DeviceAuthMessage" }

    package static var empty: DeviceAuthMessage { DeviceAuthMessage() }

    package mutating func readField(
        _ field: ProtobufField,
        from reader: inout ProtobufReader
    ) throws(ProtobufError) -> Bool {
        switch field.number {
        case 1:
            try reader.readMessage(field, name: "challenge", into: &challenge)
        case 2:
            try reader.readMessage(field, name: "response", into: &response)
        case 3:
            try reader.readMessage(field, name: "error", into: &error)
        default:
            return false
        }
        return true
    }

    package var serializedSize: Int {
        var size = unknownFields.count
        if let challenge {
            size += ProtobufSize.messageField(1, challenge)
        }
        if let response {
            size += ProtobufSize.messageField(2, response)
        }
        if let error {
            size += ProtobufSize.messageField(3, error)
        }
        return size
    }

    package func write(to writer: inout ProtobufWriter) {
        if let challenge {
            writer.writeMessageField(1, challenge)
        }
        if let response {
            writer.writeMessageField(2, response)
        }
        if let error {
            writer.writeMessageField(3, error)
        }
        writer.writeRaw(unknownFields)
    }
}
