import Foundation
import Testing

@testable import CastCore

@Suite struct JSONPayloadEncoderTests {
    struct Sample: Codable, Equatable {
        var zeta: String
        var alpha: Int?
        var values: [Double]
        var nested: Nested?
        var flags: [String: Bool]

        struct Nested: Codable, Equatable {
            var text: String
            var small: Int8
            var large: UInt64
            var float: Float
        }
    }

    @Test func writesMembersInDeclarationOrderAndOmitsNil() throws {
        let sample = Sample(zeta: "z", alpha: nil, values: [1, 0.5], nested: nil, flags: [:])
        #expect(try JSONPayloadEncoder().encode(sample) == #"{"zeta":"z","values":[1.0,0.5],"flags":{}}"#)
    }

    @Test func foundationReadsWhatItWrites() throws {
        let sample = Sample(
            zeta: "quote \" backslash \\ tab \t newline \n bell \u{07} é 😀",
            alpha: -5,
            values: [0, -0.0, 1e-7, 1e300, 123.456],
            nested: Sample.Nested(text: "/", small: -128, large: UInt64.max, float: 1.5),
            flags: ["on": true, "off": false]
        )
        let bytes = try JSONPayloadEncoder().encodeToBytes(sample)
        #expect(try JSONDecoder().decode(Sample.self, from: Data(bytes)) == sample)
        #expect(try JSONPayloadDecoder().decode(Sample.self, from: bytes) == sample)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#"\u0007"#))
        #expect(text.contains("é 😀"))
        #expect(text.contains(#""large":18446744073709551615"#))
    }

    @Test func rejectsNonFiniteNumbersNamingThePath() throws {
        let seek = SeekRequest(mediaSessionID: 1, currentTime: .nan)
        #expect(throws: MessageEncodingError(code: .invalidValue, path: "currentTime")) { try seek.jsonString() }
        let load = LoadRequest(data: LoadRequestData(media: MediaInformation(duration: .infinity)))
        #expect(throws: MessageEncodingError(code: .invalidValue, path: "media.duration")) { try load.jsonString() }
        let custom = PingMessage()
        _ = try custom.jsonString()
        let pause = MediaSessionRequest(type: .pause, mediaSessionID: 1, customData: ["list": [1, .double(.nan)]])
        #expect(throws: MessageEncodingError(code: .invalidValue, path: "customData.list[1]")) {
            try pause.jsonString()
        }
        let sample = Sample(zeta: "", values: [1, .infinity], flags: [:])
        let error = try #require(throws: MessageEncodingError.self) { try JSONPayloadEncoder().encode(sample) }
        #expect(error.path == "values[1]")
        #expect(error.description.contains("values[1]"))
    }

    struct Wrapper: Encodable {
        var items: [QueueItem]
        var note: String
    }

    @Test func nestedMessageTypesInsideCustomTypes() throws {
        let wrapper = Wrapper(
            items: [QueueItem(itemID: 1, media: MediaInformation(contentID: "a", duration: 5)), QueueItem(itemID: 2)],
            note: "n"
        )
        let expected = #"{"items":[{"itemId":1,"media":{"contentId":"a","duration":5.0}},{"itemId":2}],"note":"n"}"#
        #expect(try JSONPayloadEncoder().encode(wrapper) == expected)
        var encodable = JSONPayloadEncoder()
        encodable.usesTokenEncodable = false
        #expect(try encodable.encode(wrapper) == expected)
        #expect(try JSONPayloadEncoder().encodeToJSONValue(wrapper) == JSONValue(parsing: expected))
        let broken = Wrapper(items: [QueueItem(), QueueItem(media: MediaInformation(duration: .nan))], note: "")
        #expect(throws: MessageEncodingError(code: .invalidValue, path: "items[1].media.duration")) {
            try JSONPayloadEncoder().encode(broken)
        }
    }

    @Test func doublesReadBackAsDoubles() throws {
        let text = try JSONPayloadEncoder().encode(Volume(level: 1, muted: false))
        #expect(text == #"{"level":1.0,"muted":false}"#)
        guard case .double = try JSONValue(parsing: text)["level"] else {
            Issue.record("level is not a double")
            return
        }
    }

    @Test func encodesToJSONValue() throws {
        let value = try JSONPayloadEncoder().encodeToJSONValue(MediaImage(url: "u", width: 2))
        #expect(value == ["url": "u", "width": 2])
    }

    struct Manual: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            try container.encode(1, forKey: AnyCodingKey("a"))
            var nested = container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: AnyCodingKey("n"))
            try nested.encode("x", forKey: AnyCodingKey("k"))
            var list = container.nestedUnkeyedContainer(forKey: AnyCodingKey("l"))
            try list.encode(true)
            try list.encodeNil()
            var inner = list.nestedContainer(keyedBy: AnyCodingKey.self)
            try inner.encode(2.5, forKey: AnyCodingKey("d"))
            try "sup".encode(to: container.superEncoder(forKey: AnyCodingKey("s")))
            try container.encode(3, forKey: AnyCodingKey("a"))
        }
    }

    @Test func supportsNestedAndSuperEncoders() throws {
        #expect(
            try JSONPayloadEncoder().encode(Manual())
                == #"{"a":3,"n":{"k":"x"},"l":[true,null,{"d":2.5}],"s":"sup"}"#
        )
    }
}
