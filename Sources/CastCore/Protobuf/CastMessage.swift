/// One message of the Cast protocol (`CastMessage`), the body of every frame.
///
/// Optional fields stay `nil` when absent so that a decoded message re-encodes to the
/// same bytes. Fields this type does not know are kept in ``unknownFields`` and written
/// after the known ones (so re-encoding is byte-exact whenever the input listed its
/// fields in number order, as protobuf writers do); they take part in `==`.
///
/// Decoding checks the protobuf rules only: it does not require the payload field that
/// matches ``payloadType`` to be present, nor the identifiers to be non-empty.
public struct CastMessage: Hashable, Sendable {
    /// Field 1, `protocol_version` (required).
    public var protocolVersion: CastProtocolVersion
    /// Field 2, `source_id` (required): the sending endpoint, e.g. `sender-0`.
    public var sourceID: String
    /// Field 3, `destination_id` (required): the receiving endpoint, e.g. `receiver-0`,
    /// or `*` for a broadcast.
    public var destinationID: String
    /// Field 4, `namespace` (required).
    public var namespace: CastNamespace
    /// Field 5, `payload_type` (required).
    public var payloadType: CastPayloadType
    /// Field 6, `payload_utf8`: the payload when ``payloadType`` is ``CastPayloadType/string``.
    public var payloadUTF8: String?
    /// Field 7, `payload_binary`: the payload when ``payloadType`` is ``CastPayloadType/binary``.
    public var payloadBinary: [UInt8]?
    /// Field 8, `continued`: more chunks follow (unused in practice).
    public var continued: Bool?
    /// Field 9, `remaining_length`: bytes remaining in later chunks (unused in practice).
    public var remainingLength: UInt32?
    /// Raw bytes of fields this type does not know, re-emitted after the known fields.
    public var unknownFields: [UInt8] = []

    /// Creates a message with every field given.
    public init(
        protocolVersion: CastProtocolVersion = .castV2_1_0,
        sourceID: String,
        destinationID: String,
        namespace: CastNamespace,
        payloadType: CastPayloadType,
        payloadUTF8: String? = nil,
        payloadBinary: [UInt8]? = nil,
        continued: Bool? = nil,
        remainingLength: UInt32? = nil
    ) {
        self.protocolVersion = protocolVersion
        self.sourceID = sourceID
        self.destinationID = destinationID
        self.namespace = namespace
        self.payloadType = payloadType
        self.payloadUTF8 = payloadUTF8
        self.payloadBinary = payloadBinary
        self.continued = continued
        self.remainingLength = remainingLength
    }

    /// Creates a text message, as used for the JSON of every platform namespace.
    public init(sourceID: String, destinationID: String, namespace: CastNamespace, text: String) {
        self.init(
            sourceID: sourceID,
            destinationID: destinationID,
            namespace: namespace,
            payloadType: .string,
            payloadUTF8: text
        )
    }

    /// Creates a binary message, as used for device authentication.
    public init(sourceID: String, destinationID: String, namespace: CastNamespace, binary: [UInt8]) {
        self.init(
            sourceID: sourceID,
            destinationID: destinationID,
            namespace: namespace,
            payloadType: .binary,
            payloadBinary: binary
        )
    }

    /// Decodes a serialized `CastMessage`, such as a frame body.
    /// - Throws: ``ProtobufError`` when the bytes are not a valid `CastMessage`: a
    ///   malformed encoding, a missing required field (1 to 5), or a string field that is
    ///   not valid UTF-8.
    public init(serializedBytes bytes: some Collection<UInt8>) throws(ProtobufError) {
        try self.init(decoding: bytes)
    }

    /// Decodes a serialized `CastMessage` held in an array, such as a frame body.
    /// - Throws: ``ProtobufError`` as the generic initializer does.
    public init(serializedBytes bytes: [UInt8]) throws(ProtobufError) {
        self = try bytes.withUnsafeBufferPointer { Self.decode($0) }.get()
    }

    /// Decodes a serialized `CastMessage` held in part of an array, such as a frame
    /// without its length prefix.
    /// - Throws: ``ProtobufError`` as the generic initializer does.
    public init(serializedBytes bytes: ArraySlice<UInt8>) throws(ProtobufError) {
        self = try bytes.withUnsafeBufferPointer { Self.decode($0) }.get()
    }

    private static func decode(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<CastMessage, ProtobufError> {
        var reader = ProtobufReader(buffer, message: protobufName)
        return Result { () throws(ProtobufError) -> CastMessage in try CastMessage(reader: &reader) }
    }

    /// Returns the protobuf encoding of the message.
    public func serializedBytes() -> [UInt8] { encoded() }
}

extension CastMessage: ProtobufMessage {
    package static var protobufName: StaticString { "CastMessage" }

    package init(reader: inout ProtobufReader) throws(ProtobufError) {
        try self.init(reader: &reader, startingFrom: nil)
    }

    package mutating func merge(from reader: inout ProtobufReader) throws(ProtobufError) {
        self = try CastMessage(reader: &reader, startingFrom: self)
    }

    /// Decodes into locals, then checks the required fields; `previous` supplies the
    /// values of a message being merged into.
    private init(reader: inout ProtobufReader, startingFrom previous: CastMessage?) throws(ProtobufError) {
        var protocolVersion: CastProtocolVersion?
        var sourceID: String?
        var destinationID: String?
        var namespace: String?
        var payloadType: CastPayloadType?
        var payloadUTF8: String?
        var payloadBinary: [UInt8]?
        var continued: Bool?
        var remainingLength: UInt32?
        var unknownFields: [UInt8] = []
        if let previous {
            protocolVersion = previous.protocolVersion
            sourceID = previous.sourceID
            destinationID = previous.destinationID
            namespace = previous.namespace.rawValue
            payloadType = previous.payloadType
            payloadUTF8 = previous.payloadUTF8
            payloadBinary = previous.payloadBinary
            continued = previous.continued
            remainingLength = previous.remainingLength
            unknownFields = previous.unknownFields
        }
        while let field = try reader.nextField() {
            switch field.number {
            case 1:
                protocolVersion = CastProtocolVersion(rawValue: try reader.readInt32(field, name: "protocol_version"))
            case 2:
                sourceID = try reader.readString(field, name: "source_id")
            case 3:
                destinationID = try reader.readString(field, name: "destination_id")
            case 4:
                let range = try reader.readLengthDelimited(field, name: "namespace")
                if let known = CastNamespace.platformNamespace(matching: reader.buffer(in: range)) {
                    namespace = known.rawValue
                } else {
                    namespace = try reader.string(in: range, field: field, name: "namespace")
                }
            case 5:
                payloadType = CastPayloadType(rawValue: try reader.readInt32(field, name: "payload_type"))
            case 6:
                payloadUTF8 = try reader.readString(field, name: "payload_utf8")
            case 7:
                payloadBinary = try reader.readBytes(field, name: "payload_binary")
            case 8:
                continued = try reader.readBool(field, name: "continued")
            case 9:
                remainingLength = try reader.readUInt32(field, name: "remaining_length")
            default:
                reader.appendBytes(in: try reader.skip(field), to: &unknownFields)
            }
        }
        guard let protocolVersion else { throw reader.missingField("protocol_version", number: 1) }
        guard let sourceID else { throw reader.missingField("source_id", number: 2) }
        guard let destinationID else { throw reader.missingField("destination_id", number: 3) }
        guard let namespace else { throw reader.missingField("namespace", number: 4) }
        guard let payloadType else { throw reader.missingField("payload_type", number: 5) }
        self.protocolVersion = protocolVersion
        self.sourceID = sourceID
        self.destinationID = destinationID
        self.namespace = CastNamespace(rawValue: namespace)
        self.payloadType = payloadType
        self.payloadUTF8 = payloadUTF8
        self.payloadBinary = payloadBinary
        self.continued = continued
        self.remainingLength = remainingLength
        self.unknownFields = unknownFields
    }

    package var serializedSize: Int {
        var size = unknownFields.count
        size += ProtobufSize.int32Field(1, protocolVersion.rawValue)
        size += ProtobufSize.lengthDelimitedField(2, length: sourceID.utf8.count)
        size += ProtobufSize.lengthDelimitedField(3, length: destinationID.utf8.count)
        size += ProtobufSize.lengthDelimitedField(4, length: namespace.rawValue.utf8.count)
        size += ProtobufSize.int32Field(5, payloadType.rawValue)
        if let payloadUTF8 {
            size += ProtobufSize.lengthDelimitedField(6, length: payloadUTF8.utf8.count)
        }
        if let payloadBinary {
            size += ProtobufSize.lengthDelimitedField(7, length: payloadBinary.count)
        }
        if continued != nil {
            size += 2
        }
        if let remainingLength {
            size += ProtobufSize.varintField(9, UInt64(remainingLength))
        }
        return size
    }

    package func write(to writer: inout ProtobufWriter) {
        writer.writeInt32Field(1, protocolVersion.rawValue)
        writer.writeStringField(2, sourceID)
        writer.writeStringField(3, destinationID)
        writer.writeStringField(4, namespace.rawValue)
        writer.writeInt32Field(5, payloadType.rawValue)
        if let payloadUTF8 {
            writer.writeStringField(6, payloadUTF8)
        }
        if let payloadBinary {
            writer.writeBytesField(7, payloadBinary)
        }
        if let continued {
            writer.writeBoolField(8, continued)
        }
        if let remainingLength {
            writer.writeVarintField(9, UInt64(remainingLength))
        }
        writer.writeRaw(unknownFields)
    }
}
