/// Shared machinery of the per-namespace message enums: parse once, peek at the type, decode.
enum InboundMessageDecoding {
    /// The message type and whether it came from `responseType` (no `type` member).
    struct Peek {
        var type: CastMessageType
        var isResponseType: Bool
    }

    /// Parses `payload`, reads its type, and calls `decode` with the type and the document.
    static func decode<Message>(
        _ payload: String,
        _ decode: (Peek, JSONDocument) throws -> Message
    ) throws(MessageDecodingError) -> Message {
        try JSONDocument.withDocument(payload, maximumDepth: JSONParser.defaultMaximumDepth) { document in
            try decode(try peek(document), document)
        }
    }

    static func peek(_ document: JSONDocument) throws -> Peek {
        guard document.tokens[0].kind == .object else {
            throw MessageDecodingError(
                code: .missingType,
                detail: "the payload is \(document.tokens[0].typeName), not an object"
            )
        }
        for (name, isResponseType) in [("type", false), ("responseType", true)] {
            guard let index = document.member(name, ofObjectAt: 0), document.tokens[index].kind != .null else {
                continue
            }
            guard document.tokens[index].kind == .string else {
                throw MessageDecodingError(
                    code: .wrongType,
                    path: name,
                    detail: "expected a string, found \(document.tokens[index].typeName)"
                )
            }
            return Peek(type: CastMessageType(rawValue: document.string(at: index)), isResponseType: isResponseType)
        }
        throw MessageDecodingError(code: .missingType)
    }

    static func unknown(_ peek: Peek, _ document: JSONDocument) -> UnknownMessage {
        UnknownMessage(type: peek.type, payload: document.value(at: 0))
    }
}
