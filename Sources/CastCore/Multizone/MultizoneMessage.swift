/// A message of the `urn:x-cast:com.google.cast.multizone` namespace.
///
/// `MULTIZONE_STATUS`, `DEVICE_ADDED`, `DEVICE_UPDATED` and `DEVICE_REMOVED` are modelled;
/// every other type (`CASTING_GROUPS`, `PLAYBACK_SESSION_UPDATED`, …) is kept whole.
package enum MultizoneMessage: Sendable, Hashable {
    /// `MULTIZONE_STATUS`.
    case multizoneStatus(MultizoneStatusMessage)
    /// `DEVICE_ADDED`.
    case deviceAdded(MultizoneDeviceMessage)
    /// `DEVICE_UPDATED`.
    case deviceUpdated(MultizoneDeviceMessage)
    /// `DEVICE_REMOVED`.
    case deviceRemoved(MultizoneDeviceRemovedMessage)
    /// Any other type, kept whole.
    case unknown(UnknownMessage)

    /// Decodes a payload of the multizone namespace.
    ///
    /// - Throws: ``MessageDecodingError``; an unknown `type` is not an error.
    package init(jsonString payload: String) throws(MessageDecodingError) {
        self = try InboundMessageDecoding.decode(payload) { peek, document in
            switch peek.type {
            case .multizoneStatus: .multizoneStatus(try MultizoneStatusMessage(token: 0, in: document))
            case .deviceAdded: .deviceAdded(try MultizoneDeviceMessage(token: 0, in: document))
            case .deviceUpdated: .deviceUpdated(try MultizoneDeviceMessage(token: 0, in: document))
            case .deviceRemoved: .deviceRemoved(try MultizoneDeviceRemovedMessage(token: 0, in: document))
            default: .unknown(InboundMessageDecoding.unknown(peek, document))
            }
        }
    }

    /// The message type.
    package var type: CastMessageType {
        switch self {
        case .multizoneStatus(let message): message.type
        case .deviceAdded(let message), .deviceUpdated(let message): message.type
        case .deviceRemoved: .deviceRemoved
        case .unknown(let message): message.type
        }
    }

    /// The request id, when the message carries one.
    package var requestID: Int? {
        switch self {
        case .multizoneStatus(let message): message.requestID
        case .deviceAdded(let message), .deviceUpdated(let message): message.requestID
        case .deviceRemoved(let message): message.requestID
        case .unknown(let message): message.requestID
        }
    }

    /// Encodes the message as compact JSON text; an unknown message is written back as received.
    package func jsonString() throws(MessageEncodingError) -> String {
        switch self {
        case .multizoneStatus(let message): try message.jsonString()
        case .deviceAdded(let message), .deviceUpdated(let message): try Self.encode(message)
        case .deviceRemoved(let message): try Self.encode(message)
        case .unknown(let message): message.payload.description
        }
    }

    private static func encode(_ message: some TokenEncodableObject) throws(MessageEncodingError) -> String {
        var writer = JSONWriter()
        do {
            try message.write(to: &writer)
        } catch {
            throw MessageEncodingError(code: .invalidValue, detail: "a volume level is not a finite number")
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
