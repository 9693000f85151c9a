import Foundation
import Testing

@testable import CastCore

@Suite struct JSONValueTests {
    @Test func accessors() {
        let value: JSONValue = ["s": "text", "i": 3, "d": 2.5, "b": true, "n": nil, "a": [1, "x"], "o": ["k": 1]]
        #expect(value["s"]?.stringValue == "text")
        #expect(value["i"]?.intValue == 3)
        #expect(value["i"]?.doubleValue == 3)
        #expect(value["d"]?.doubleValue == 2.5)
        #expect(value["d"]?.intValue == nil)
        #expect(value["b"]?.boolValue == true)
        #expect(value["n"]?.isNull == true)
        #expect(value["a"]?[1] == "x")
        #expect(value["a"]?[2] == nil)
        #expect(value["a"]?.arrayValue?.count == 2)
        #expect(value["o"]?.objectValue == ["k": 1])
        #expect(value["missing"] == nil)
        #expect(value["s"]?["k"] == nil)
        #expect(JSONValue.double(4).intValue == 4)
        #expect(JSONValue.string("4").intValue == nil)
    }

    @Test func settingAMemberMakesAnObject() {
        var value: JSONValue = nil
        value["a"] = 1
        value["b"] = ["c": true]
        #expect(value == ["a": 1, "b": ["c": true]])
        value["a"] = nil
        #expect(value == ["b": ["c": true]])
    }

    @Test func numbersCompareByValue() {
        #expect(JSONValue.integer(1) == .double(1))
        #expect(JSONValue.double(1) == .integer(1))
        #expect(JSONValue.integer(1) != .double(1.5))
        #expect(JSONValue.integer(1) != .string("1"))
        #expect(JSONValue.bool(true) != .integer(1))
        var hasher1 = Hasher()
        JSONValue.integer(7).hash(into: &hasher1)
        var hasher2 = Hasher()
        JSONValue.double(7).hash(into: &hasher2)
        #expect(hasher1.finalize() == hasher2.finalize())
        #expect(Set<JSONValue>([.integer(2), .double(2), .double(2.5)]).count == 2)
    }

    @Test func descriptionIsCompactJSONWithSortedKeys() {
        let value: JSONValue = ["b": [1, 2.5, "x\"y"], "a": nil, "c": ["z": false]]
        #expect(value.description == #"{"a":null,"b":[1,2.5,"x\"y"],"c":{"z":false}}"#)
        #expect(JSONValue.double(3).description == "3.0")
    }

    @Test func parsesAndWritesBack() throws {
        let text = #"{"a":[1,-2,3.25,true,false,null],"b":{"c":"é\n\u0001"},"d":""}"#
        let value = try JSONValue(parsing: text)
        #expect(try JSONValue(parsing: value.description) == value)
        #expect(try JSONValue(parsing: Array(text.utf8)) == value)
    }

    @Test func codableWithFoundation() throws {
        let value: JSONValue = ["list": [1, 2.5, "s", true, nil, ["nested": [:]]], "big": 9_007_199_254_740_993]
        let data = try JSONEncoder().encode(value)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(decoded == value)
        #expect(decoded["big"] == .integer(9_007_199_254_740_993))
    }

    @Test func codableWithPayloadCoders() throws {
        let value: JSONValue = ["list": [1, 2.5, "s", true, nil], "o": ["k": "v"]]
        let text = try JSONPayloadEncoder().encode(value)
        #expect(text == #"{"list":[1,2.5,"s",true,null],"o":{"k":"v"}}"#)
        #expect(try JSONPayloadDecoder().decode(JSONValue.self, from: text) == value)
        #expect(try JSONPayloadEncoder().encodeToJSONValue(value) == value)
    }
}
