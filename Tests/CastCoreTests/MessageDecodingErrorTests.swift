import Testing

@testable import CastCore

@Suite struct MessageDecodingErrorTests {
    @Test func codesHaveStableValues() {
        #expect(MessageDecodingError.Code.invalidJSON.rawValue == 1)
        #expect(MessageDecodingError.Code.missingType.rawValue == 2)
        #expect(MessageDecodingError.Code.wrongType.rawValue == 3)
        #expect(MessageDecodingError.Code.missingField.rawValue == 4)
        #expect(MessageDecodingError.Code.invalidValue.rawValue == 5)
        #expect(MessageEncodingError.Code.invalidValue.rawValue == 1)
    }

    @Test func equalityIgnoresTheDetail() {
        let a = MessageDecodingError(code: .wrongType, path: "a", detail: "one")
        let b = MessageDecodingError(code: .wrongType, path: "a", detail: "two")
        #expect(a == b)
        #expect(a != MessageDecodingError(code: .wrongType, path: "b"))
        #expect(a != MessageDecodingError(code: .invalidValue, path: "a"))
        #expect(Set([a, b]).count == 1)
    }

    @Test func descriptionsSayWhatAndWhere() throws {
        let wrongType = try #require(
            decodingError {
                _ = try MediaMessage(
                    jsonString: #"{"type":"MEDIA_STATUS","status":[{"mediaSessionId":1,"currentTime":"abc"}]}"#
                )
            }
        )
        #expect(
            wrongType.description == "wrong JSON type at 'status[0].currentTime': expected a number, found a string"
        )
        let invalid = try #require(decodingError { _ = try MediaMessage(jsonString: #"{"type":"PLAY",}"#) })
        #expect(invalid.description == "invalid JSON at byte 15: expected a member name string")
        let missing = try #require(decodingError { _ = try MediaMessage(jsonString: #"{"type":"SEEK"}"#) })
        #expect(missing.description == "missing required field 'mediaSessionId'")
        let noType = try #require(decodingError { _ = try MediaMessage(jsonString: #"{"requestId":1}"#) })
        #expect(noType.description == "message has no string 'type' member")
    }
}
