import CastCore
import Testing

@Suite struct CastNamespaceTests {
    @Test func platformConstants() {
        #expect(CastNamespace.connection.rawValue == "urn:x-cast:com.google.cast.tp.connection")
        #expect(CastNamespace.heartbeat.rawValue == "urn:x-cast:com.google.cast.tp.heartbeat")
        #expect(CastNamespace.deviceAuth.rawValue == "urn:x-cast:com.google.cast.tp.deviceauth")
        #expect(CastNamespace.receiver.rawValue == "urn:x-cast:com.google.cast.receiver")
        #expect(CastNamespace.media.rawValue == "urn:x-cast:com.google.cast.media")
        #expect(CastNamespace.multizone.rawValue == "urn:x-cast:com.google.cast.multizone")
        #expect(CastNamespace.setup.rawValue == "urn:x-cast:com.google.cast.setup")
        #expect(CastNamespace.discovery.rawValue == "urn:x-cast:com.google.cast.receiver.discovery")
        let all: [CastNamespace] = [
            .connection, .heartbeat, .deviceAuth, .receiver, .media, .multizone, .setup, .discovery,
        ]
        #expect(all.allSatisfy { $0.isReserved && !$0.isCustom })
    }

    @Test(arguments: [
        ("urn:x-cast:com.example.castvideos", true),
        ("urn:x-cast:a", true),
        ("urn:x-cast:", false),
        ("urn:x-cast:com.google.cast.media", false),
        ("urn:x-cast:com.google.cast.player.message", false),
        // The codelab's text channel: a sample receiver's app namespace.
        ("urn:x-cast:com.google.cast.sample.helloworld", true),
        ("urn:x-cast:com.google.cast.sample.", false),
        ("urn:x-cast:com.google.cast.samples", false),
        ("x-cast:com.example", false),
        ("URN:X-CAST:com.example", false),
        ("urn:x-cast:com example", false),
        ("urn:x-cast:caf\u{E9}", false),
        ("urn:x-cast:" + String(repeating: "a", count: 117), true),
        ("urn:x-cast:" + String(repeating: "a", count: 118), false),
    ])
    func customNamespaceValidation(rawValue: String, valid: Bool) {
        #expect(CastNamespace(rawValue: rawValue).isCustom == valid)
        #expect((CastNamespace(custom: rawValue) != nil) == valid)
        #expect(CastNamespace(rawValue: rawValue).rawValue == rawValue)
    }

    @Test func anyWireStringIsKept() {
        let namespace = CastNamespace(rawValue: "not a urn")
        #expect(namespace.description == "not a urn")
        #expect(!namespace.isReserved)
        #expect(!namespace.isCustom)
    }

    @Test func protocolVersions() {
        #expect(CastProtocolVersion.castV2_1_0.rawValue == 0)
        #expect(CastProtocolVersion.castV2_1_1.rawValue == 1)
        #expect(CastProtocolVersion.castV2_1_2.rawValue == 2)
        #expect(CastProtocolVersion.castV2_1_3.rawValue == 3)
        #expect(CastProtocolVersion.castV2_1_3.description == "CASTV2_1_3")
        #expect(CastProtocolVersion(rawValue: 4).description == "CastProtocolVersion(4)")
        #expect(CastPayloadType.string.rawValue == 0)
        #expect(CastPayloadType.binary.rawValue == 1)
    }
}
