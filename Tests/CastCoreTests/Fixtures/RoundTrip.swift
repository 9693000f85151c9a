import Foundation
import Testing

@testable import CastCore

/// Checks a decoded message against its payload:
/// - encoding it and decoding the result gives the same value;
/// - the encoded JSON is the payload's JSON value (exact member names, nothing lost), with the
///   type member first;
/// - the `Encodable` path and the token path write the same JSON;
/// - the `Decodable` path, the token path and Foundation's `JSONDecoder` agree, and what
///   Foundation's `JSONEncoder` writes decodes back to the same value.
func expectRoundTrip<Message: CastJSONMessage>(
    _ message: Message,
    payload: String,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let encoded = try message.jsonString()
    #expect(try Message(jsonString: encoded) == message, sourceLocation: sourceLocation)
    #expect(try JSONValue(parsing: encoded) == JSONValue(parsing: payload), sourceLocation: sourceLocation)
    #expect(
        encoded.hasPrefix(#"{"\#(Message.typeMember)":"\#(message.type.rawValue)""#),
        "\(encoded)",
        sourceLocation: sourceLocation
    )

    let viaEncodable = try message.jsonBytes(usesTokenEncodable: false)
    #expect(try JSONValue(parsing: viaEncodable) == JSONValue(parsing: encoded), sourceLocation: sourceLocation)

    var codablePath = JSONPayloadDecoder()
    codablePath.usesTokenDecodable = false
    #expect(try codablePath.decode(Message.self, from: payload) == message, sourceLocation: sourceLocation)
    #expect(try JSONPayloadDecoder().decode(Message.self, from: payload) == message, sourceLocation: sourceLocation)
    let viaFoundation = try JSONDecoder().decode(Message.self, from: Data(payload.utf8))
    #expect(viaFoundation == message, sourceLocation: sourceLocation)
    let fromFoundation = try JSONEncoder().encode(message)
    #expect(
        try JSONPayloadDecoder().decode(Message.self, from: Array(fromFoundation)) == message,
        sourceLocation: sourceLocation
    )
}

/// The ``MessageDecodingError`` `body` throws, or `nil`; any other error is a test failure.
func decodingError(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) -> MessageDecodingError? {
    do {
        try body()
        return nil
    } catch let error as MessageDecodingError {
        return error
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The `type` (or `responseType`) string of a payload.
func payloadType(_ payload: String) throws -> String {
    let value = try JSONValue(parsing: payload)
    return try #require(value["type"]?.stringValue ?? value["responseType"]?.stringValue)
}
