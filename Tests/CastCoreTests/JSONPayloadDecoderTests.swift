import Foundation
import Testing

@testable import CastCore

@Suite struct JSONPayloadDecoderTests {
    enum Mode: String, Codable {
        case fast
        case slow
    }

    struct Custom: Codable, Equatable {
        var mode: Mode
        var optionals: [Int?]
        var table: [String: Int]
        var small: UInt8
        var float: Float
        var extra: JSONValue
        var media: MediaInformation?
    }

    @Test func decodesArbitraryCodableTypes() throws {
        let payload =
            #"{"mode":"slow","optionals":[1,null,3],"table":{"a":1,"b":2},"small":255,"float":0.5,"extra":{"any":[true]},"media":{"contentId":"x","streamType":"LIVE"},"ignored":{"deep":[1,2,3]}}"#
        let decoded = try JSONPayloadDecoder().decode(Custom.self, from: payload)
        #expect(decoded.mode == .slow)
        #expect(decoded.optionals == [1, nil, 3])
        #expect(decoded.table == ["a": 1, "b": 2])
        #expect(decoded.small == 255)
        #expect(decoded.float == 0.5)
        #expect(decoded.extra == ["any": [true]])
        #expect(decoded.media == MediaInformation(contentID: "x", streamType: .live))
        #expect(try JSONDecoder().decode(Custom.self, from: Data(payload.utf8)) == decoded)
        var slow = JSONPayloadDecoder()
        slow.usesTokenDecodable = false
        #expect(try slow.decode(Custom.self, from: payload) == decoded)
    }

    @Test(arguments: [
        (#"{"mode":"medium","optionals":[],"table":{},"small":1,"float":1,"extra":1}"#, "invalidValue", "mode"),
        (#"{"mode":"fast","optionals":[],"table":{},"small":256,"float":1,"extra":1}"#, "invalidValue", "small"),
        (#"{"mode":"fast","optionals":[],"table":{},"small":-1,"float":1,"extra":1}"#, "invalidValue", "small"),
        (#"{"mode":"fast","optionals":[],"table":{},"small":1,"float":1e300,"extra":1}"#, "invalidValue", "float"),
        (#"{"mode":"fast","optionals":["x"],"table":{},"small":1,"float":1,"extra":1}"#, "wrongType", "optionals[0]"),
        (#"{"mode":"fast","optionals":[],"table":{"a":"1"},"small":1,"float":1,"extra":1}"#, "wrongType", "table.a"),
        (#"{"mode":"fast","optionals":[],"table":[],"small":1,"float":1,"extra":1}"#, "wrongType", "table"),
        (#"{"mode":"fast","optionals":[],"table":{},"small":1,"float":1}"#, "missingField", "extra"),
        (
            #"{"mode":"fast","optionals":[],"table":{},"small":1,"float":1,"extra":1,"media":{"duration":"long"}}"#,
            "wrongType", "media.duration"
        ),
        (
            #"{"mode":"fast","optionals":[],"table":{},"small":1,"float":1,"extra":1,"media":{"tracks":[{"type":"TEXT"}]}}"#,
            "missingField", "media.tracks[0].trackId"
        ),
    ])
    func reportsCodableErrorsWithPaths(payload: String, code: String, path: String) throws {
        for usesTokenDecodable in [true, false] {
            var decoder = JSONPayloadDecoder()
            decoder.usesTokenDecodable = usesTokenDecodable
            let error = try #require(decodingError { _ = try decoder.decode(Custom.self, from: payload) })
            #expect(error.code.description == code, "\(error)")
            #expect(error.path == path, "\(error)")
        }
    }

    struct Manual: Decodable, Equatable {
        var values: [String]

        init(values: [String]) { self.values = values }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            var values: [String] = []
            let nested = try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: AnyCodingKey("n"))
            values.append(try nested.decode(String.self, forKey: AnyCodingKey("k")))
            #expect(nested.codingPath.map(\.stringValue) == ["n"])
            var list = try container.nestedUnkeyedContainer(forKey: AnyCodingKey("l"))
            #expect(list.count == 3)
            #expect(try list.decodeNil())
            values.append(try list.decode(String.self))
            let inner = try list.nestedContainer(keyedBy: AnyCodingKey.self)
            values.append(String(try inner.decode(Int.self, forKey: AnyCodingKey("i"))))
            #expect(list.isAtEnd)
            let error = #expect(throws: MessageDecodingError.self) { _ = try list.decode(String.self) }
            #expect(error?.path == "l[3]")
            values.append(try String(from: container.superDecoder(forKey: AnyCodingKey("s"))))
            #expect(container.contains(AnyCodingKey("l")))
            #expect(!container.contains(AnyCodingKey("zz")))
            #expect(try container.decodeNil(forKey: AnyCodingKey("z")))
            #expect(Set(container.allKeys.map(\.stringValue)) == ["n", "l", "s", "z"])
            self.values = values
        }
    }

    @Test func supportsNestedContainersAndSuperDecoders() throws {
        let payload = #"{"n":{"k":"a"},"l":[null,"b",{"i":3}],"s":"c","z":null}"#
        #expect(try JSONPayloadDecoder().decode(Manual.self, from: payload) == Manual(values: ["a", "b", "3", "c"]))
    }

    @Test func memberOrderAndEscapedNamesDoNotMatter() throws {
        let expected = try MediaStatusMessage(jsonString: mediaStatusFixture)
        // Sorted keys: members arrive in an order unlike the declaration order.
        let sorted = try JSONValue(parsing: mediaStatusFixture).description
        #expect(try MediaStatusMessage(jsonString: sorted) == expected)
        let escaped =
            mediaStatusFixture
            .replacingOccurrences(of: #""mediaSessionId""#, with: #""media\u0053essionId""#)
            .replacingOccurrences(of: #""contentType""#, with: #""content\u0054ype""#)
            .replacingOccurrences(of: #""url""#, with: #""\u0075rl""#)
        #expect(escaped != mediaStatusFixture)
        #expect(try MediaStatusMessage(jsonString: escaped) == expected)
        var slow = JSONPayloadDecoder()
        slow.usesTokenDecodable = false
        #expect(try slow.decode(MediaStatusMessage.self, from: escaped) == expected)
    }

    @Test func decodesFromJSONValue() throws {
        let customData: JSONValue = ["contentId": "x", "duration": 12]
        let media = try JSONPayloadDecoder().decode(MediaInformation.self, from: customData)
        #expect(media == MediaInformation(contentID: "x", duration: 12))
    }

    @Test func decodesFromBytes() throws {
        let bytes = Array(mediaStatusFixture.utf8)
        let message = try JSONPayloadDecoder().decode(MediaStatusMessage.self, from: bytes)
        #expect(message.status.count == 1)
        let error = try #require(
            decodingError {
                _ = try JSONPayloadDecoder().decode(MediaStatusMessage.self, from: Array(bytes.dropLast()))
            }
        )
        #expect(error.code == .invalidJSON)
    }

    @Test func codingPathsOfContainers() throws {
        struct Probe: Decodable {
            var paths: [String]
            init(from decoder: any Decoder) throws {
                paths = [JSONPath.string(decoder.codingPath)]
                let container = try decoder.container(keyedBy: AnyCodingKey.self)
                paths.append(JSONPath.string(container.codingPath))
            }
        }
        struct Outer: Decodable {
            var probes: [Probe]
        }
        var slow = JSONPayloadDecoder()
        slow.usesTokenDecodable = false
        let outer = try slow.decode(Outer.self, from: #"{"probes":[{},{"a":1}]}"#)
        #expect(outer.probes.map(\.paths) == [["probes[0]", "probes[0]"], ["probes[1]", "probes[1]"]])
    }
}
