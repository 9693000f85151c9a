/// A JSON message payload of a Cast namespace (the `payload_utf8` of a `CastMessage`).
///
/// Conforming types encode their members with `Codable`; ``jsonString()`` adds the `type`
/// member (or `responseType`, see ``typeMember``) in front of them.
///
/// ```swift
/// let payload = try LaunchRequest(requestID: 1, appID: "CC1AD845").jsonString()
/// // {"type":"LAUNCH","requestId":1,"appId":"CC1AD845"}
/// ```
package protocol CastJSONMessage: Codable, Sendable, Equatable {
    /// The message type written in the payload.
    var type: CastMessageType { get }
    /// The request id, for messages that carry one.
    var requestID: Int? { get }
    /// The member that carries ``type``: `type`, or `responseType` for replies marked that way.
    static var typeMember: String { get }
}

extension CastJSONMessage {
    package static var typeMember: String { "type" }

    /// Encodes the message as compact JSON text, `type` first.
    package func jsonString() throws(MessageEncodingError) -> String {
        String(decoding: try jsonBytes(), as: UTF8.self)
    }

    /// Encodes the message as compact JSON text in UTF-8, `type` first.
    package func jsonBytes() throws(MessageEncodingError) -> [UInt8] {
        try jsonBytes(usesTokenEncodable: true)
    }

    /// Encodes as ``jsonBytes()`` does, through the hand-written layer only when
    /// `usesTokenEncodable` (tests and `cast-bench json` compare both layers).
    package func jsonBytes(usesTokenEncodable: Bool) throws(MessageEncodingError) -> [UInt8] {
        if usesTokenEncodable, let message = self as? any TokenEncodableObject {
            var writer = JSONWriter()
            writer.beginObject()
            writer.write(Self.typeMember)
            writer.append(UInt8(ascii: ":"))
            writer.write(type.rawValue)
            writer.needsComma = true
            // A non-finite number ends the fast path; the Encodable path below reports where it is.
            if (try? message.writeMembers(to: &writer)) != nil {
                writer.endObject()
                return writer.bytes
            }
        }
        var encoder = JSONPayloadEncoder()
        encoder.usesTokenEncodable = false
        return try encoder.encodeToBytes(TypedEnvelope(message: self))
    }

    /// Decodes a message of this type from JSON text; the `type` member is not checked.
    package init(jsonString: String) throws(MessageDecodingError) {
        self = try JSONPayloadDecoder().decode(Self.self, from: jsonString)
    }
}

/// Writes the type member, then the message's own members.
private struct TypedEnvelope<Message: CastJSONMessage>: Encodable {
    let message: Message

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        try container.encode(message.type, forKey: AnyCodingKey(Message.typeMember))
        try message.encode(to: encoder)
    }
}
