import CastTestSupport
import Testing

@testable import CastCore

@Suite struct JSONParserTests {
    struct Invalid: Sendable, CustomTestStringConvertible {
        var bytes: [UInt8]
        var offset: Int
        var testDescription: String { String(decoding: bytes, as: UTF8.self).debugDescription }

        init(_ text: String, at offset: Int) {
            self.bytes = Array(text.utf8)
            self.offset = offset
        }

        init(bytes: [UInt8], at offset: Int) {
            self.bytes = bytes
            self.offset = offset
        }
    }

    static let invalid: [Invalid] = [
        Invalid("", at: 0),
        Invalid(" ", at: 1),
        Invalid("{", at: 1),
        Invalid("[", at: 1),
        Invalid(#"{"a":1,}"#, at: 7),
        Invalid("[1,]", at: 3),
        Invalid("[1 2]", at: 3),
        Invalid(#"{"a" 1}"#, at: 5),
        Invalid(#"{"a":1 "b":2}"#, at: 7),
        Invalid(#"{a:1}"#, at: 1),
        Invalid("{'a':1}", at: 1),
        Invalid("01", at: 1),
        Invalid("-01", at: 2),
        Invalid("1.", at: 2),
        Invalid(".5", at: 0),
        Invalid("-", at: 1),
        Invalid("+1", at: 0),
        Invalid("1e", at: 2),
        Invalid("1e+", at: 3),
        Invalid("0x10", at: 1),
        Invalid("1e400", at: 0),
        Invalid("-1e400", at: 0),
        Invalid("NaN", at: 0),
        Invalid("Infinity", at: 0),
        Invalid("tru", at: 0),
        Invalid("trux", at: 3),
        Invalid("nul", at: 0),
        Invalid("True", at: 0),
        Invalid("1 2", at: 2),
        Invalid(#"{"a":1}x"#, at: 7),
        Invalid("\u{0B}1", at: 0),
        Invalid(#""abc"#, at: 0),
        Invalid("\"a\u{01}b\"", at: 2),
        Invalid("\"a\nb\"", at: 2),
        Invalid(#""\x""#, at: 2),
        Invalid(#""\u12""#, at: 5),
        Invalid(#""\u12G4""#, at: 5),
        Invalid(#""\"#, at: 1),
        Invalid(#""\ud800""#, at: 1),
        Invalid(#""\udc00""#, at: 1),
        Invalid(#""\ud800\u0041""#, at: 7),
        Invalid(#""\ud800x""#, at: 1),
        Invalid(bytes: [0xEF, 0xBB, 0xBF, 0x31], at: 0),
        Invalid(bytes: [0x22, 0xC3, 0x28, 0x22], at: 2),
        Invalid(bytes: [0x22, 0xC0, 0x80, 0x22], at: 1),
        Invalid(bytes: [0x22, 0xC1, 0xBF, 0x22], at: 1),
        Invalid(bytes: [0x22, 0xE0, 0x80, 0x80, 0x22], at: 2),
        Invalid(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], at: 2),
        Invalid(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], at: 2),
        Invalid(bytes: [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], at: 1),
        Invalid(bytes: [0x22, 0xE2, 0x82], at: 1),
        Invalid(bytes: [0x22, 0xE2, 0x82, 0x41, 0x22], at: 3),
        Invalid(bytes: [0x22, 0x80, 0x22], at: 1),
        Invalid(bytes: [0x22, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0xFF, 0x22], at: 9),
        Invalid(bytes: Array("[\"abcdefgh".utf8) + [0x00] + Array("\"]".utf8), at: 10),
        Invalid(bytes: [0x5B, 0xC3, 0xA9, 0x5D], at: 1),
    ]

    @Test(arguments: invalid)
    func rejectsInvalidJSONAtTheOffendingByte(_ entry: Invalid) throws {
        let error = try #require(decodingError { _ = try JSONValue(parsing: entry.bytes) })
        #expect(error.code == .invalidJSON)
        #expect(error.byteOffset == entry.offset, "\(error)")
        #expect(error.description.contains("byte \(entry.offset)"))
    }

    @Test func limitsNesting() throws {
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(try JSONValue(parsing: deep) != .null)
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        let error = try #require(decodingError { _ = try JSONValue(parsing: tooDeep) })
        #expect(error.code == .invalidJSON)
        #expect(error.byteOffset == 64)
        let objects = String(repeating: #"{"a":"#, count: 10) + "1" + String(repeating: "}", count: 10)
        #expect(throws: MessageDecodingError.self) { try JSONValue(parsing: objects, maximumDepth: 9) }
        #expect(try JSONValue(parsing: objects, maximumDepth: 10) != .null)
        // Deep input is rejected, not a stack overflow.
        let hostile = String(repeating: "[", count: 100_000)
        #expect(throws: MessageDecodingError.self) { try JSONValue(parsing: hostile) }
    }

    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONValue(
            parsing:
                " {\"n\":null,\"t\":true,\"f\":false,\"i\":-42,\"d\":2.5e-3,\"s\":\"x\",\"a\":[1,[],{}],\"o\":{\"k\":\"v\"}}\r\n\t"
        )
        #expect(
            value == [
                "n": nil, "t": true, "f": false, "i": -42, "d": 0.0025, "s": "x", "a": [1, [], [:]], "o": ["k": "v"],
            ]
        )
        #expect(try JSONValue(parsing: "7") == 7)
        #expect(try JSONValue(parsing: #""""#) == "")
        #expect(try JSONValue(parsing: "[]") == [])
    }

    @Test func decodesStringEscapes() throws {
        #expect(try JSONValue(parsing: #""\"\\\/\b\f\n\r\t""#) == "\"\\/\u{08}\u{0C}\n\r\t")
        #expect(try JSONValue(parsing: #""\u0041\u00e9\u20AC\ud83d\ude00""#) == "Aé€😀")
        #expect(try JSONValue(parsing: #""\u0000""#) == "\u{0}")
        #expect(try JSONValue(parsing: "\"Aé€😀\"") == "Aé€😀")
        let long = String(repeating: "abcdefgh", count: 40) + "é" + String(repeating: "x", count: 13)
        #expect(try JSONValue(parsing: "\"\(long)\"") == .string(long))
    }

    @Test func keepsIntegersExact() throws {
        #expect(try JSONValue(parsing: "9223372036854775807") == .integer(Int.max))
        #expect(try JSONValue(parsing: "-9223372036854775808") == .integer(Int.min))
        #expect(try JSONValue(parsing: "9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try JSONValue(parsing: "123456789012345678901234567890") == .double(1.2345678901234568e29))
        #expect(try JSONValue(parsing: "18446744073709551615") == .double(Double(UInt64.max)))
        #expect(try JSONValue(parsing: "18446744073709551616") == .double(18_446_744_073_709_551_616))
        #expect(try JSONPayloadDecoder().decode(UInt64.self, from: "18446744073709551615") == UInt64.max)
        #expect(try JSONPayloadDecoder().decode(Int.self, from: "-9223372036854775808") == Int.min)
        #expect(throws: MessageDecodingError.self) {
            try JSONPayloadDecoder().decode(UInt64.self, from: "18446744073709551616")
        }
        #expect(try JSONValue(parsing: "0") == .integer(0))
        guard case .double(let negativeZero) = try JSONValue(parsing: "-0") else {
            Issue.record("-0 is not a double")
            return
        }
        #expect(negativeZero == 0 && negativeZero.sign == .minus)
        guard case .double = try JSONValue(parsing: "1.0") else {
            Issue.record("1.0 is not a double")
            return
        }
    }

    @Test(arguments: [
        "0.1", "1e-7", "123.456e2", "2.2250738585072014e-308", "4.9e-324", "1.7976931348623157e308",
        "3.141592653589793238462643383279", "0.000000000000000000000000000001", "9007199254740993",
        "1e22", "1e23", "8.98846567431158e307", "-0.5", "12345678901234567890.5", "1E+2", "5e-1",
    ])
    func parsesDoublesLikeTheStandardLibrary(text: String) throws {
        let expected = try #require(Double(text))
        #expect(try JSONValue(parsing: text).doubleValue == expected)
    }

    @Test func parsesRandomDoublesExactly() throws {
        var generator = SplitMix64(seed: 0x5EED)
        for _ in 0..<2000 {
            let bits = generator.next()
            let value = Double(bitPattern: bits)
            guard value.isFinite else { continue }
            let shortest = value.description
            #expect(try JSONValue(parsing: shortest).doubleValue == value, "\(shortest)")
            let mantissa = generator.next() % 100_000_000_000
            let exponent = Int(generator.next() % 60) - 30
            let decimal = "\(mantissa)e\(exponent)"
            #expect(try JSONValue(parsing: decimal).doubleValue == Double(decimal), "\(decimal)")
        }
    }

    @Test func ignoresDuplicateMembersByKeepingOne() throws {
        let value = try JSONValue(parsing: #"{"a":1,"a":2}"#)
        #expect(value.objectValue?.count == 1)
    }
}

@Suite struct JSONMutationTests {
    static let seeds = MessageFixtures.media + MessageFixtures.receiver + MessageFixtures.connection

    /// Random edits of real payloads: every decoder either succeeds or throws a typed error.
    @Test func mutatedPayloadsFailCleanly() throws {
        var generator = SplitMix64(seed: 0xCA57)
        let alphabet = Array(#"{}[]":,\"0123456789.-eE tnfrua"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xE2, 0xF0, 0xFF]
        var failures = 0
        for (index, seed) in Self.seeds.enumerated() {
            for _ in 0..<120 {
                var bytes = Array(seed.utf8)
                for _ in 0...Int(generator.next() % 3) {
                    let position = Int(generator.next() % UInt64(bytes.count + 1))
                    let byte = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                    switch generator.next() % 4 {
                    case 0: if position < bytes.count { bytes[position] = byte }
                    case 1: bytes.insert(byte, at: position)
                    case 2: if position < bytes.count { bytes.remove(at: position) }
                    default: bytes.removeSubrange(position...)
                    }
                }
                let payload = String(decoding: bytes, as: UTF8.self)
                do {
                    let value = try JSONValue(parsing: bytes)
                    #expect(try JSONValue(parsing: value.description) == value)
                } catch {
                    failures += 1
                    #expect(error.code == .invalidJSON, "seed \(index): \(error)")
                    #expect(error.byteOffset.map { $0 <= bytes.count } == true)
                }
                for decode in [
                    { _ = try MediaMessage(jsonString: payload) }, { _ = try ReceiverMessage(jsonString: payload) },
                    { _ = try ConnectionMessage(jsonString: payload) },
                ] as [() throws -> Void] {
                    _ = decodingError(decode)
                }
                var slow = JSONPayloadDecoder()
                slow.usesTokenDecodable = false
                _ = decodingError { _ = try slow.decode(MediaStatusMessage.self, from: bytes) }
                _ = decodingError { _ = try slow.decode(LoadRequest.self, from: bytes) }
            }
        }
        #expect(failures > 0)
    }

    @Test func denseInputGrowsTheTokenBuffer() throws {
        for text in [
            "1", "[1,1,1,1,1,1,1,1]", #"{"":1,"a":2,"b":3}"#, "[[],[],[],[]]", #"["","",""]"#, "[[[[[[1]]]]]]",
        ] {
            #expect(try JSONValue(parsing: text).description == text)
        }
        let many = "[" + Array(repeating: "0", count: 50_000).joined(separator: ",") + "]"
        #expect(try JSONValue(parsing: many).arrayValue?.count == 50_000)
        let objects = "[" + Array(repeating: #"{"a":[]}"#, count: 5_000).joined(separator: ",") + "]"
        #expect(try JSONValue(parsing: objects).arrayValue?.last == ["a": []])
    }

    @Test func depthLimitIsCapped() throws {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let error = try #require(decodingError { _ = try JSONValue(parsing: deep, maximumDepth: 100_000) })
        #expect(error.byteOffset == JSONParser.depthLimit)
    }
}
