import CastCore
import CastTestSupport
import Testing

@Suite(.requires(.openScreenTestData)) struct CastMessageTests {
    /// A PING on the heartbeat namespace, encoded by hand:
    ///
    ///     08 00                      protocol_version (1, varint) = CASTV2_1_0
    ///     12 08 "sender-0"           source_id (2, length-delimited), 8 bytes
    ///     1A 0A "receiver-0"         destination_id (3), 10 bytes
    ///     22 27 "urn:x-cast:com.google.cast.tp.heartbeat"
    ///                                namespace (4), 11 + 16 + 12 = 39 = 0x27 bytes
    ///     28 00                      payload_type (5, varint) = STRING
    ///     32 0F "{\"type\":\"PING\"}"  payload_utf8 (6), 15 bytes
    ///
    /// 2 + 10 + 12 + 41 + 2 + 17 = 84 bytes.
    static let ping: [UInt8] =
        [0x08, 0x00, 0x12, 0x08] + Array("sender-0".utf8) + [0x1A, 0x0A] + Array("receiver-0".utf8) + [0x22, 0x27]
        + Array("urn:x-cast:com.google.cast.tp.heartbeat".utf8) + [0x28, 0x00, 0x32, 0x0F]
        + Array(#"{"type":"PING"}"#.utf8)

    static let pingMessage = CastMessage(
        sourceID: "sender-0",
        destinationID: "receiver-0",
        namespace: .heartbeat,
        text: #"{"type":"PING"}"#
    )

    @Test func textMessageEncodesByHand() {
        #expect(Self.ping.count == 84)
        #expect(Self.pingMessage.serializedBytes() == Self.ping)
    }

    @Test func textMessageDecodes() throws {
        let message = try CastMessage(serializedBytes: Self.ping)
        #expect(message == Self.pingMessage)
        #expect(message.protocolVersion == .castV2_1_0)
        #expect(message.payloadType == .string)
        #expect(message.payloadBinary == nil)
        #expect(message.continued == nil)
        #expect(message.remainingLength == nil)
    }

    @Test func decodesFromSlicesAndOtherCollections() throws {
        let framed = [0x00, 0x00, 0x00, 0x54] + Self.ping
        #expect(try CastMessage(serializedBytes: framed[4...]) == Self.pingMessage)
        #expect(try CastMessage(serializedBytes: Self.ping.lazy.map { $0 }) == Self.pingMessage)
    }

    @Test func binaryMessageWithEveryOptionalField() throws {
        var message = CastMessage(sourceID: "a", destinationID: "*", namespace: "urn:x-cast:x", binary: [0x00, 0xFF])
        message.protocolVersion = .castV2_1_3
        message.continued = false
        message.remainingLength = 300
        let expected: [UInt8] =
            [0x08, 0x03, 0x12, 0x01, 0x61, 0x1A, 0x01, 0x2A, 0x22, 0x0C] + Array("urn:x-cast:x".utf8) + [
                0x28, 0x01,  // payload_type BINARY
                0x3A, 0x02, 0x00, 0xFF,  // payload_binary
                0x40, 0x00,  // continued = false (present)
                0x48, 0xAC, 0x02,  // remaining_length = 300
            ]
        #expect(message.serializedBytes() == expected)
        #expect(try CastMessage(serializedBytes: expected) == message)
    }

    @Test func unknownEnumValuesAreKept() throws {
        var message = Self.pingMessage
        message.protocolVersion = CastProtocolVersion(rawValue: 9)
        message.payloadType = CastPayloadType(rawValue: -1)
        let bytes = message.serializedBytes()
        // -1 takes 10 bytes where 0 took 1: 84 + 9.
        #expect(bytes.count == 93)
        let decoded = try CastMessage(serializedBytes: bytes)
        #expect(decoded.protocolVersion.rawValue == 9)
        #expect(decoded.payloadType.rawValue == -1)
        #expect(decoded.payloadType.description == "CastPayloadType(-1)")
    }

    @Test func unknownFieldsAreKeptAndReemittedAfterKnownFields() throws {
        // Field 15 (varint 1) and field 100 (fixed32) follow the known fields.
        let extra: [UInt8] = [0x78, 0x01, 0xA5, 0x06, 0x01, 0x02, 0x03, 0x04]
        let message = try CastMessage(serializedBytes: Self.ping + extra)
        #expect(message.unknownFields == extra)
        #expect(message.serializedBytes() == Self.ping + extra)
        // Placed first, they move to the end on re-encoding; the value is the same.
        let moved = try CastMessage(serializedBytes: extra + Self.ping)
        #expect(moved == message)
        #expect(moved.serializedBytes() == Self.ping + extra)
    }

    @Test func lastOccurrenceOfAScalarWins() throws {
        let message = try CastMessage(serializedBytes: Self.ping + [0x12, 0x01, 0x62])
        #expect(message.sourceID == "b")
    }

    // MARK: Malformed input

    @Test(arguments: [
        ("protocol_version", 1, 0..<2),
        ("source_id", 2, 2..<12),
        ("destination_id", 3, 12..<24),
        ("namespace", 4, 24..<65),
        ("payload_type", 5, 65..<67),
    ])
    func missingRequiredFieldIsNamed(name: String, number: Int, range: Range<Int>) {
        var bytes = Self.ping
        bytes.removeSubrange(range)
        let error = #expect(throws: ProtobufError.self) { try CastMessage(serializedBytes: bytes) }
        #expect(error?.code == .missingRequiredField)
        #expect(error?.messageName == "CastMessage")
        #expect(error?.fieldName == name)
        #expect(error?.fieldNumber == number)
        #expect(error?.offset == 0)
    }

    @Test(arguments: [
        ("source_id", 6),
        ("destination_id", 16),
        ("namespace", 30),
        ("payload_utf8", 70),
    ])
    func invalidUTF8InAStringFieldIsNamed(name: String, index: Int) {
        var bytes = Self.ping
        bytes[index] = 0xFF
        let error = #expect(throws: ProtobufError.self) { try CastMessage(serializedBytes: bytes) }
        #expect(error?.code == .invalidUTF8)
        #expect(error?.fieldName == name)
        // Each field's content starts two bytes after its tag.
        let contentStart = [2: 4, 3: 14, 4: 26, 6: 69][error?.fieldNumber ?? 0]
        #expect(error?.offset == contentStart)
    }

    @Test func wrongWireTypeForAKnownField() {
        var bytes = Self.ping
        bytes[0] = 0x0A  // protocol_version as length-delimited: 0x0A 0x00 is an empty string.
        let error = #expect(throws: ProtobufError.self) { try CastMessage(serializedBytes: bytes) }
        #expect(error?.code == .wrongWireType)
        #expect(error?.fieldName == "protocol_version")
        #expect(error?.fieldNumber == 1)
        #expect(error?.wireType == 2)
        #expect(error?.offset == 0)
    }

    @Test func stringFieldAsVarintIsWrongWireType() {
        let bytes: [UInt8] = [0x08, 0x00, 0x10, 0x05]  // source_id (2) with wire type 0
        let error = #expect(throws: ProtobufError.self) { try CastMessage(serializedBytes: bytes) }
        #expect(error?.code == .wrongWireType)
        #expect(error?.fieldName == "source_id")
        #expect(error?.offset == 2)
    }

    // Known field 1 as a start group, known field 2 as an end group, unknown field 15 as a
    // group, and a stray end group.
    @Test(arguments: [
        ([UInt8]([0x0B]), ProtobufError.Code.wrongWireType, String?("protocol_version")),
        ([0x14], .wrongWireType, "source_id"),
        ([0x7B, 0x7C], .unsupportedGroup, nil),
        ([0x7C], .unsupportedGroup, nil),
    ])
    func groupWireTypesAreRejected(suffix: [UInt8], code: ProtobufError.Code, name: String?) {
        let error = #expect(throws: ProtobufError.self) { try CastMessage(serializedBytes: Self.ping + suffix) }
        #expect(error?.code == code)
        #expect(error?.fieldName == name)
        #expect(error?.offset == 84)
    }

    @Test func fieldNumberZeroIsRejected() {
        let error = #expect(throws: ProtobufError.self) { try CastMessage(serializedBytes: Self.ping + [0x00, 0x00]) }
        #expect(error?.code == .invalidFieldNumber)
        #expect(error?.fieldNumber == 0)
        #expect(error?.offset == 84)
    }

    @Test func truncatedAndOverlongVarints() {
        let truncated = #expect(throws: ProtobufError.self) { try CastMessage(serializedBytes: [0x08, 0x80]) }
        #expect(truncated?.code == .truncatedVarint)
        #expect(truncated?.fieldName == "protocol_version")
        #expect(truncated?.offset == 1)
        let overlong = #expect(throws: ProtobufError.self) {
            try CastMessage(serializedBytes: [0x08] + [UInt8](repeating: 0x80, count: 10) + [0x00])
        }
        #expect(overlong?.code == .varintTooLong)
        #expect(overlong?.fieldName == "protocol_version")
        #expect(overlong?.offset == 1)
    }

    @Test func lengthPastTheEnd() {
        var bytes = Self.ping
        // Byte 67 is payload_utf8's tag, 68 its length: declare 16 bytes where 15 follow.
        bytes[68] = 0x10
        let error = #expect(throws: ProtobufError.self) { try CastMessage(serializedBytes: bytes) }
        #expect(error?.code == .lengthPastEnd)
        #expect(error?.fieldName == "payload_utf8")
        #expect(error?.offset == 68)
    }

    // MARK: Properties

    static var fullMessage: [UInt8] {
        var message = CastMessage(
            sourceID: "sender-0",
            destinationID: "receiver-0",
            namespace: .media,
            text: #"{"type":"GET_STATUS","requestId":1}"#
        )
        message.payloadBinary = [1, 2, 3]
        message.continued = true
        message.remainingLength = 70_000
        message.unknownFields = [0x78, 0x01, 0x81, 0x01, 0x02, 0x00]
        return message.serializedBytes()
    }

    @Test func truncationAtEveryByteFailsOrDecodesAShorterMessage() throws {
        let inputs = [Self.ping, Self.fullMessage, try CastTestData.bytes("receiver/channel/auth_challenge.pb")]
        for bytes in inputs {
            for length in 0..<bytes.count {
                let prefix = Array(bytes[..<length])
                do {
                    let message = try CastMessage(serializedBytes: prefix)
                    // Only a cut at a field boundary after every required field decodes,
                    // and then it holds exactly the fields before the cut.
                    #expect(message.serializedBytes() == prefix)
                } catch {
                    #expect(error.offset <= length)
                }
            }
        }
    }

    @Test func randomInputNeverCrashesAndDecodesStably() throws {
        var generator = SplitMix64(seed: 0x5EED)
        var decoded = 0
        for _ in 0..<20_000 {
            var bytes = Self.ping
            // Flip up to three bytes of a valid message, or use pure noise.
            if generator.next() % 4 == 0 {
                bytes = (0..<Int(generator.next() % 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            } else {
                for _ in 0...(generator.next() % 3) {
                    bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
                }
            }
            guard let message = try? CastMessage(serializedBytes: bytes) else { continue }
            decoded += 1
            #expect(try CastMessage(serializedBytes: message.serializedBytes()) == message)
        }
        #expect(decoded > 0)
    }
}
