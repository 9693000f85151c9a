/// A message of the `urn:x-cast:com.google.cast.multizone` namespace.
///
/// Only `MULTIZONE_STATUS` is modelled; every other type (`DEVICE_ADDED`,
/// `DEVICE_UPDATED`, …) is kept whole.
public enum MultizoneMessage: Sendable, Hashable {
    /// `MULTIZONE_STATUS`.
    case multizoneStatus(MultizoneStatusMessage)
    /// Any other type, kept whole.
    case unknown(UnknownMessage)

    /// Decodes a payload of the multizone namespace.
    ///
    /// - Throws: ``MessageDecodingError``; an unknown `type` is not an error.
    public init(jsonString payload: String) throws(MessageDecodingError) {
        self = try InboundMessageDecoding.decode(payload) { peek, document in
            switch peek.type {
            case .multizoneStatus: .multizoneStatus(try MultizoneStatusMessage(token: 0, in: document))
            default: .unknown(InboundMessageDecoding.unknown(peek, document))
            }
        }
    }

    /// The message type.
    public var type: CastMessageType {
        switch self {
        case .multizoneStatus(let message): message.type
        case .unknown(let message): message.type
        }
    }

    /// The request id, when the message carries one.
    public var requestId: Int? {
        switch self {
        case .multizoneStatus(let message): message.requestId
        case .unknown(let message): message.requestId
        }
    }

    /// Encodes the message as compact JSON text; an unknown message is written back as received.
    public func jsonString() throws(MessageEncodingError) -> String {
        switch self {
        case .multizoneStatus(let message): try message.jsonString()
        case .unknown(let message): message.payload.description
        }
    }
}
