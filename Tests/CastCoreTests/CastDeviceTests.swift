import CastCore
import Foundation
import Testing

@Suite struct CastDeviceTests {
    static let txt = TXTRecord(
        strings: [
            "id=f38e268b2fc3268a56b9fa12e75bbb4a", "cd=66FC3BE2BFB1", "rm=", "ve=05", "md=Chromecast",
            "ic=/setup/icon.png", "fn=Living Room TV", "ca=200709", "st=1", "bs=FA8FCA8DA177", "nf=1", "rs=YouTube",
        ].map { Array($0.utf8) }
    )

    @Test func buildsDeviceFromTXTSRVAndAddresses() throws {
        let device = try #require(
            CastDevice(
                serviceName: "Chromecast-f38e._googlecast._tcp.local",
                hostName: "f38e.local",
                port: 8009,
                addresses: [
                    .v6(IPv6Address("fe80::1")!), .v4(IPv4Address(192, 0, 2, 10)), .v4(IPv4Address(192, 0, 2, 10)),
                ],
                txt: Self.txt
            )
        )
        #expect(device.id == UUID(uuidString: "F38E268B-2FC3-268A-56B9-FA12E75BBB4A"))
        #expect(device.idText == "f38e268b2fc3268a56b9fa12e75bbb4a")
        #expect(device.friendlyName == "Living Room TV")
        #expect(device.modelName == "Chromecast")
        #expect(device.protocolVersion == 5)
        #expect(device.capabilities.rawValue == 200_709)
        #expect(device.capabilities.isSuperset(of: [.videoOut, .audioOut, .dynamicGroupingSupported]))
        #expect(!device.capabilities.contains(.videoIn))
        #expect(device.status == .busy)
        #expect(device.statusText == "YouTube")
        #expect(device.iconPath == "/setup/icon.png")
        #expect(device.addresses == [.v4(IPv4Address(192, 0, 2, 10)), .v6(IPv6Address("fe80::1")!)])
        #expect(device.txt["cd"] == "66FC3BE2BFB1")
    }

    @Test(arguments: [
        ("f38e268b2fc3268a56b9fa12e75bbb4a", true), ("F38E268B-2FC3-268A-56B9-FA12E75BBB4A", true),
        ("f38e268b2fc3268a56b9fa12e75bbb4", false), ("f38e268b2fc3268a56b9fa12e75bbb4g", false), ("", false),
        ("f38e268b2fc3268a56b9fa12e75bbb4a0", false),
    ])
    func parsesIDs(text: String, valid: Bool) {
        #expect((CastDevice.parseID(text) != nil) == valid)
    }

    @Test func ignoresServicesWithoutID() {
        var txt = Self.txt
        txt["id"] = nil
        #expect(CastDevice(serviceName: "x", hostName: "h", port: 8009, addresses: [], txt: txt) == nil)
        txt["id"] = "zz"
        #expect(CastDevice(serviceName: "x", hostName: "h", port: 8009, addresses: [], txt: txt) == nil)
    }

    @Test func advertisesEmulatorMinimumTXT() throws {
        let device = CastDevice(
            id: try #require(CastDevice.parseID("0123456789abcdef0123456789abcdef")),
            friendlyName: "Den",
            modelName: "Chromecast",
            capabilities: [.videoOut, .audioOut],
            status: .idle,
            statusText: "Ready"
        )
        let txt = device.txtRecord
        #expect(txt.entries.map(\.key) == ["id", "cd", "rm", "ve", "md", "ic", "fn", "ca", "st", "bs", "nf", "rs"])
        #expect(txt["id"] == "0123456789abcdef0123456789abcdef")
        #expect(txt["ve"] == "05")
        #expect(txt["ca"] == "5")
        #expect(txt["st"] == "0")
        #expect(txt["cd"] == "0123456789ABCDEF0123456789ABCDEF")
        #expect(txt["bs"] == "0123456789AB")
        #expect(txt["nf"] == "1")
        // The record parses back into the same device description.
        let parsed = try #require(
            CastDevice(serviceName: "s", hostName: "h", port: 8009, addresses: [], txt: TXTRecord(strings: txt.strings))
        )
        #expect(parsed.id == device.id)
        #expect(parsed.friendlyName == "Den")
        #expect(parsed.capabilities == [.videoOut, .audioOut])
        #expect(parsed.status == .idle)
        #expect(parsed.statusText == "Ready")
    }

    @Test func capabilityBitsMatchTheCastValues() {
        let table: [(CastDeviceCapabilities, Int)] = [
            (.videoOut, 1), (.videoIn, 2), (.audioOut, 4), (.audioIn, 8), (.devMode, 16), (.multizoneGroup, 32),
            (.dynamicGroup, 64), (.masterOrFixedVolume, 2048), (.attenuationOrFixedVolume, 4096),
            (.dynamicGroupingSupported, 65536),
        ]
        for (capability, value) in table { #expect(capability.rawValue == value) }
    }
}

@Suite struct TXTRecordTests {
    @Test func parsesPerRFC6763() {
        let record = TXTRecord(strings: [
            Array("Key=one".utf8), Array("key=two".utf8), Array("flag".utf8), [], Array("=novalue".utf8),
            Array("empty=".utf8), Array("bin=".utf8) + [0xFF, 0x00],
        ])
        #expect(record["KEY"] == "one")
        #expect(record.entries.map(\.key) == ["Key", "flag", "empty", "bin"])
        #expect(record.bytes(forKey: "flag") == .some(nil))
        #expect(record["flag"] == "")
        #expect(record["empty"] == "")
        #expect(record.bytes(forKey: "bin") == .some([0xFF, 0x00]))
        #expect(record["missing"] == nil)
    }

    @Test func cutsLongValuesAtCharacterBoundary() {
        var record = TXTRecord()
        record["fn"] = String(repeating: "é", count: 200)
        let string = record.strings[0]
        #expect(string.count <= 255)
        #expect(String(validating: string[3...], as: UTF8.self) != nil)
    }
}

@Suite struct IPAddressTests {
    @Test(arguments: [
        ("::1", "::1"), ("fe80::1", "fe80::1"), ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),
        ("2001:DB8::0:1", "2001:db8::1"), ("::ffff:192.0.2.1", "::ffff:c000:201"),
        ("1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"),
        ("::", "::"), ("1::", "1::"),
    ])
    func formatsIPv6(input: String, expected: String) throws {
        #expect(try #require(IPv6Address(input)).description == expected)
    }

    @Test(arguments: ["1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "g::", "", ":::", "1.2.3.4"])
    func rejectsBadIPv6(input: String) {
        #expect(IPv6Address(input) == nil)
    }

    @Test func parsesIPv4() {
        #expect(IPv4Address("127.0.0.1") == IPv4Address(127, 0, 0, 1))
        #expect(IPv4Address("127.0.0.1")?.isLoopback == true)
        for bad in ["256.0.0.1", "1.2.3", "1.2.3.4.5", "a.b.c.d", "1..2.3", ""] { #expect(IPv4Address(bad) == nil) }
        #expect(IPAddress("169.254.1.1") == .v4(IPv4Address(169, 254, 1, 1)))
        #expect(IPAddress("fe80::1").map { if case .v6(let a) = $0 { a.isLinkLocal } else { false } } == true)
    }
}
