/// Encodes `Encodable` values as compact JSON text for Cast message payloads.
///
/// Members are written in the order the value encodes them; `nil` optionals are omitted by the
/// synthesized conformances. Non-finite numbers are rejected with a ``MessageEncodingError``.
package struct JSONPayloadEncoder: Sendable {
    /// Whether types that offer ``TokenEncodable`` write through it rather than `Encodable`;
    /// tests turn it off to check that both paths agree, and `cast-bench json` to measure what
    /// the hand-written layer gains.
    package var usesTokenEncodable = true

    /// Creates an encoder.
    package init() {}

    /// Encodes `value` as JSON text.
    package func encode<T: Encodable>(_ value: T) throws(MessageEncodingError) -> String {
        String(decoding: try encodeToBytes(value), as: UTF8.self)
    }

    /// Encodes `value` as JSON text in UTF-8.
    package func encodeToBytes<T: Encodable>(_ value: T) throws(MessageEncodingError) -> [UInt8] {
        if usesTokenEncodable, let value = value as? any TokenEncodable {
            var writer = JSONWriter()
            // A non-finite number ends the fast path; the Encodable path below reports where it is.
            if (try? value.write(to: &writer)) != nil { return writer.bytes }
        }
        var writer = JSONWriter()
        try encodedValue(value).write(to: &writer)
        return writer.bytes
    }

    /// Encodes `value` as a ``JSONValue``, e.g. to put it in a `customData` field.
    package func encodeToJSONValue<T: Encodable>(_ value: T) throws(MessageEncodingError) -> JSONValue {
        try encodedValue(value).jsonValue
    }

    private func encodedValue<T: Encodable>(_ value: T) throws(MessageEncodingError) -> EncodedValue {
        do {
            return try TokenEncoder.encodeNested(value, parent: nil, key: nil, usesTokenEncodable: usesTokenEncodable)
        } catch let error as MessageEncodingError {
            throw error
        } catch let error as EncodingError {
            switch error {
            case .invalidValue(_, let context):
                throw MessageEncodingError(
                    code: .invalidValue,
                    path: JSONPath.string(context.codingPath),
                    detail: context.debugDescription
                )
            @unknown default:
                throw MessageEncodingError(code: .invalidValue, detail: "\(error)")
            }
        } catch {
            throw MessageEncodingError(code: .invalidValue, detail: "\(error)")
        }
    }
}
