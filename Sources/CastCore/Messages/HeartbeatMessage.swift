/// A message of the `urn:x-cast:com.google.cast.tp.heartbeat` namespace.
package enum HeartbeatMessage: Sendable, Hashable {
    /// `PING`: answer with `PONG`.
    case ping(PingMessage)
    /// `PONG`.
    case pong(PongMessage)
    /// Any other type, kept whole.
    case unknown(UnknownMessage)

    /// Decodes a payload of the heartbeat namespace.
    ///
    /// - Throws: ``MessageDecodingError``; an unknown `type` is not an error.
    package init(jsonString payload: String) throws(MessageDecodingError) {
        self = try InboundMessageDecoding.decode(payload) { peek, document in
            switch peek.type {
            case .ping: .ping(try PingMessage(token: 0, in: document))
            case .pong: .pong(try PongMessage(token: 0, in: document))
            default: .unknown(InboundMessageDecoding.unknown(peek, document))
            }
        }
    }

    /// The decoded message, or `nil` for an unknown type.
    package var message: (any CastJSONMessage)? {
        switch self {
        case .ping(let message): message
        case .pong(let message): message
        case .unknown: nil
        }
    }

    /// The message type.
    package var type: CastMessageType {
        switch self {
        case .ping(let message): message.type
        case .pong(let message): message.type
        case .unknown(let message): message.type
        }
    }

    /// The request id, when the message carries one.
    package var requestID: Int? {
        switch self {
        case .ping(let message): message.requestID
        case .pong(let message): message.requestID
        case .unknown(let message): message.requestID
        }
    }

    /// Encodes the message as compact JSON text; an unknown message is written back as received.
    package func jsonString() throws(MessageEncodingError) -> String {
        if case .unknown(let message) = self { return message.payload.description }
        return try message!.jsonString()
    }
}
