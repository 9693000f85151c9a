/// Decodes `Decodable` values from the JSON text of Cast message payloads.
///
/// The parser is strict RFC 8259 with UTF-8 validation and a nesting limit, and every failure
/// is a ``MessageDecodingError`` that names the JSON path (and, for malformed text, the byte
/// offset) of the problem. Unknown members are ignored and `null` counts as absent for
/// optional properties.
///
/// ```swift
/// let status = try JSONPayloadDecoder().decode(MediaStatusMessage.self, from: payload)
/// ```
///
/// - Important: The `Decoder` handed to `init(from:)` reads the payload in place and is only
///   valid during the call; a conformance must not keep it (or its containers) afterwards.
package struct JSONPayloadDecoder: Sendable {
    /// The deepest nesting of arrays and objects accepted.
    package var maximumDepth: Int

    /// Whether types that offer ``TokenDecodable`` decode through it rather than `Decodable`;
    /// tests turn it off to check that both paths agree, and `cast-bench json` to measure what
    /// the hand-written layer gains.
    package var usesTokenDecodable = true

    /// Creates a decoder.
    package init(maximumDepth: Int = 64) {
        self.maximumDepth = maximumDepth
    }

    /// Decodes a value of type `T` from JSON text.
    package func decode<T: Decodable>(_ type: T.Type, from payload: String) throws(MessageDecodingError) -> T {
        try JSONDocument.withDocument(payload, maximumDepth: maximumDepth) { document in
            try decodeRoot(type, document)
        }
    }

    /// Decodes a value of type `T` from JSON text in UTF-8.
    package func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(MessageDecodingError) -> T {
        do {
            return try bytes.withUnsafeBufferPointer { buffer in
                try JSONDocument.withDocument(buffer, maximumDepth: maximumDepth) { document in
                    try decodeRoot(type, document)
                }
            }
        } catch {
            throw MessageDecodingError.from(error)
        }
    }

    /// Decodes a value of type `T` from an already parsed JSON value, e.g. a `customData` object.
    package func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(MessageDecodingError) -> T {
        var writer = JSONWriter()
        writer.write(value)
        return try decode(type, from: writer.bytes)
    }

    private func decodeRoot<T: Decodable>(_ type: T.Type, _ document: JSONDocument) throws -> T {
        try TokenDecoder(document: document, usesTokenDecodable: usesTokenDecodable).decodeValue(type, at: 0)
    }
}

extension JSONValue {
    /// Parses JSON text.
    ///
    /// - Throws: ``MessageDecodingError`` with code ``MessageDecodingError/Code/invalidJSON`` and
    ///   the byte offset of the problem.
    package init(parsing text: String, maximumDepth: Int = 64) throws(MessageDecodingError) {
        self = try JSONDocument.withDocument(text, maximumDepth: maximumDepth) { $0.value(at: 0) }
    }

    /// Parses JSON text in UTF-8.
    package init(parsing bytes: [UInt8], maximumDepth: Int = 64) throws(MessageDecodingError) {
        do {
            self = try bytes.withUnsafeBufferPointer { buffer in
                try JSONDocument.withDocument(buffer, maximumDepth: maximumDepth) { $0.value(at: 0) }
            }
        } catch {
            throw MessageDecodingError.from(error)
        }
    }
}
