import CastCore
import CastNet
import CastNetCore
import Testing

@testable import CastEmulator

/// How a device's advertisement becomes a DNS-SD service, and the mDNS option of a fleet.
struct DiscoveryAdvertiserTests {
    static let identity = DeviceIdentity(
        friendlyName: "Kitchen TV",
        deviceID: "0123456789abcdef0123456789abcdef",
        modelName: "Chromecast Ultra"
    )

    @Test func serviceCarriesInstanceHostAddressPortAndTXT() throws {
        let advertisement = DeviceAdvertisement(
            identity: Self.identity,
            address: "127.0.0.7",
            port: 8009,
            status: .idle,
            applicationIDs: ["CC1AD845", "E8C28D3C", "CC1AD845", ""]
        )
        let service = MDNSDeviceAdvertiser.service(for: advertisement)
        #expect(service.instanceName == "Chromecast-Ultra-0123456789abcdef0123456789abcdef")
        #expect(service.serviceType == "_googlecast._tcp")
        #expect(service.hostName == "01234567-89ab-cdef-0123-456789abcdef")
        #expect(service.port == 8009)
        #expect(service.addresses == [IPAddress("127.0.0.7")!])
        #expect(service.subtypes == ["CC1AD845", "E8C28D3C"])
        #expect(
            service.txt.entries.map(\.key) == ["id", "cd", "rm", "ve", "md", "ic", "fn", "ca", "st", "bs", "nf", "rs"]
        )
        #expect(service.txt["id"] == "0123456789abcdef0123456789abcdef")
        #expect(service.txt["fn"] == "Kitchen TV")
        #expect(service.txt["md"] == "Chromecast Ultra")
        #expect(service.txt["ve"] == "05")
        #expect(service.txt["st"] == "0")
        #expect(service.txt["rs"] == "")
        #expect(service.txt["ca"] == String(Self.identity.capabilities.rawValue))
        let device = try #require(
            CastDevice(
                serviceName: "x",
                hostName: service.hostName,
                port: service.port,
                addresses: service.addresses,
                txt: service.txt
            )
        )
        #expect(device.idText == "0123456789abcdef0123456789abcdef")
    }

    @Test func busyStatusGoesIntoStAndRs() {
        let advertisement = DeviceAdvertisement(
            identity: Self.identity,
            address: "127.0.0.7",
            port: 8009,
            status: DeviceAdvertisedStatus(isBusy: true, statusText: "Ready To Cast")
        )
        let service = MDNSDeviceAdvertiser.service(for: advertisement)
        #expect(service.txt["st"] == "1")
        #expect(service.txt["rs"] == "Ready To Cast")
    }

    @Test(arguments: ["0.0.0.0", "::", "not an address"])
    func unspecifiedAddressLeavesTheResponderToChoose(address: String) {
        let advertisement = DeviceAdvertisement(identity: Self.identity, address: address, port: 8009, status: .idle)
        #expect(MDNSDeviceAdvertiser.service(for: advertisement).addresses.isEmpty)
    }

    @Test func deviceAdvertisesEveryAppItHosts() async throws {
        let advertiser = RecordingAdvertiser()
        var configuration = VirtualDeviceConfiguration(identity: Self.identity)
        configuration.applications.append(
            ReceiverAppDefinition(appID: "4F8B3483", displayName: "Hello", namespaces: [])
        )
        let device = VirtualDevice(
            configuration: configuration,
            options: .forTests(),
            advertiser: advertiser,
            certificateKey: ServerTestDevices.sharedKey
        )
        try await device.start()
        await device.stop()
        guard case .start(let advertisement)? = advertiser.all.first else {
            Issue.record("no start call: \(advertiser.all)")
            return
        }
        #expect(advertisement.applicationIDs == ["CC1AD845", "E8C28D3C", "4F8B3483"])
    }

    @Test(arguments: [
        (#""mdns": true,"#, [String]?.some([])),
        (#""mdns": false,"#, nil),
        (#""mdns": ["lo", "veth0"],"#, ["lo", "veth0"]),
        ("", nil),
    ])
    func fleetFileChoosesMDNSInterfaces(member: String, expected: [String]?) throws {
        let json = #"{\#(member) "devices": [{"name": "A"}]}"#
        #expect(try FleetConfiguration(json: Array(json.utf8)).mdnsInterfaces == expected)
    }

    @Test(arguments: [#""mdns": "lo""#, #""mdns": [""]"#, #""mdns": [1]"#])
    func fleetFileRejectsBadMDNSMember(member: String) {
        let json = #"{\#(member), "devices": [{"name": "A"}]}"#
        #expect {
            try FleetConfiguration(json: Array(json.utf8))
        } throws: { error in
            (error as? FleetConfigurationError)?.path == "mdns"
        }
    }
}
