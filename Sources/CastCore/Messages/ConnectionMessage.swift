/// A message of the `urn:x-cast:com.google.cast.tp.connection` namespace.
package enum ConnectionMessage: Sendable, Hashable {
    /// `CONNECT`.
    case connect(ConnectMessage)
    /// `CLOSE`.
    case close(CloseMessage)
    /// `CONNECTED`.
    case connected(ConnectedMessage)
    /// Any other type, kept whole.
    case unknown(UnknownMessage)

    /// Decodes a payload of the connection namespace.
    ///
    /// - Throws: ``MessageDecodingError``; an unknown `type` is not an error.
    package init(jsonString payload: String) throws(MessageDecodingError) {
        self = try InboundMessageDecoding.decode(payload) { peek, document in
            switch peek.type {
            case .connect: .connect(try ConnectMessage(token: 0, in: document))
            case .close: .close(try CloseMessage(token: 0, in: document))
            case .connected: .connected(try ConnectedMessage(token: 0, in: document))
            default: .unknown(InboundMessageDecoding.unknown(peek, document))
            }
        }
    }

    /// The decoded message, or `nil` for an unknown type.
    package var message: (any CastJSONMessage)? {
        switch self {
        case .connect(let message): message
        case .close(let message): message
        case .connected(let message): message
        case .unknown: nil
        }
    }

    /// The message type.
    package var type: CastMessageType {
        switch self {
        case .connect(let message): message.type
        case .close(let message): message.type
        case .connected(let message): message.type
        case .unknown(let message): message.type
        }
    }

    /// Encodes the message as compact JSON text; an unknown message is written back as received.
    package func jsonString() throws(MessageEncodingError) -> String {
        if case .unknown(let message) = self { return message.payload.description }
        return try message!.jsonString()
    }
}
