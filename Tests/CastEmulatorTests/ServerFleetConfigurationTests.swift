import CastCore
import Testing

@testable import CastEmulator

@Suite struct ServerFleetConfigurationTests {
    @Test func generatedFleetNamesAndAddresses() throws {
        let fleet = try FleetConfiguration.generated(
            count: 3,
            name: "Den",
            firstAddress: "127.0.0.254",
            model: "Nest Hub"
        )
        #expect(fleet.devices.map(\.configuration.identity.friendlyName) == ["Den", "Den 2", "Den 3"])
        // .255 and .0 are skipped.
        #expect(fleet.devices.map(\.options.address) == ["127.0.0.254", "127.0.1.1", "127.0.1.2"])
        #expect(fleet.devices.allSatisfy { $0.options.castPort == 8009 && $0.options.httpPort == 8008 })
        #expect(Set(fleet.devices.map(\.configuration.identity.deviceID)).count == 3)
        #expect(fleet.devices.allSatisfy { $0.configuration.identity.udn != nil })
        #expect(fleet.devices[0].configuration.identity.modelName == "Nest Hub")
    }

    @Test func twoHundredDevicesFitFrom127002() throws {
        let fleet = try FleetConfiguration.generated(count: 200)
        #expect(fleet.devices.first?.options.address == "127.0.0.2")
        #expect(fleet.devices.last?.options.address == "127.0.0.201")
    }

    @Test(arguments: [
        (0, "127.0.0.2", FleetConfigurationError.Code.invalidValue),
        (2, "127.0.0", .invalidValue),
        (2, "127.0.0.300", .invalidValue),
        (3, "255.255.255.253", .addressesExhausted),
    ])
    func generatedFleetRejects(count: Int, address: String, code: FleetConfigurationError.Code) {
        #expect {
            _ = try FleetConfiguration.generated(count: count, firstAddress: address)
        } throws: { error in
            (error as? FleetConfigurationError)?.code == code
        }
    }

    @Test func mediaModeComesFromTheFileOrTheDefault() throws {
        let json = #"{"devices": [{"name": "A", "media": "auto"}, {"name": "B"}]}"#
        let library = try FleetConfiguration(json: Array(json.utf8))
        #expect(library.devices.map(\.configuration.mediaMode) == [.auto, .simulate])
        let fetching = try FleetConfiguration(json: Array(json.utf8), defaultMediaMode: .fetch)
        #expect(fetching.devices.map(\.configuration.mediaMode) == [.auto, .fetch])
    }

    @Test func parsesAFullConfigurationFile() throws {
        let json = #"""
            {"apps": [{"appId": "4F8B3483", "displayName": "Hello", "namespaces": ["urn:x-cast:com.example.hello"],
                       "statusText": "Saying hello", "androidTVAppId": "2C6A6E3D"}],
             "devices": [
               {"name": "Living Room TV", "id": "01234567-89ab-cdef-0123-456789abcdef", "model": "Chromecast Ultra",
                "manufacturer": "Acme", "capabilities": ["video_out", "audio_out"], "address": "127.0.0.40",
                "castPort": 0, "httpPort": 0, "httpsPort": 0, "locale": "fr-FR", "timezone": "Europe/Paris",
                "volume": 0.25, "idleScreen": false, "bufferingMs": 0, "mediaDurationSeconds": 90, "control": true,
                "statusIntervalSeconds": 1.5, "apps": [{"appId": "ABCDEF12", "namespaces": []}]},
               {"name": "Speaker", "capabilities": 4}
             ]}
            """#
        let fleet = try FleetConfiguration(json: Array(json.utf8))
        #expect(fleet.devices.count == 2)
        let tv = fleet.devices[0]
        #expect(tv.configuration.identity.deviceID == "0123456789abcdef0123456789abcdef")
        #expect(tv.configuration.identity.modelName == "Chromecast Ultra")
        #expect(tv.configuration.identity.manufacturer == "Acme")
        #expect(tv.configuration.identity.capabilities == .videoDevice)
        #expect(tv.options.address == "127.0.0.40" && tv.options.castPort == 0 && tv.options.controlEndpointEnabled)
        #expect(tv.options.locale == "fr-FR" && tv.options.timeZone == "Europe/Paris")
        #expect(tv.configuration.volume.level == 0.25)
        #expect(tv.configuration.idleScreenAppID == nil)
        #expect(tv.configuration.bufferingDelay == .zero)
        #expect(tv.configuration.defaultMediaDuration == 90)
        #expect(tv.configuration.statusInterval == .milliseconds(1500))
        #expect(tv.configuration.applications.map(\.appID) == ["CC1AD845", "E8C28D3C", "4F8B3483", "ABCDEF12"])
        let hello = try #require(tv.configuration.application(withID: "4F8B3483"))
        #expect(hello.namespaces == ["urn:x-cast:com.example.hello"])
        #expect(hello.statusText == "Saying hello" && hello.androidTV?.nativeAppID == "2C6A6E3D")
        let speaker = fleet.devices[1]
        #expect(speaker.options.address == "127.0.0.41")
        #expect(speaker.configuration.identity.capabilities == .audioDevice)
        #expect(speaker.configuration.applications.map(\.appID) == ["CC1AD845", "E8C28D3C", "4F8B3483"])
        #expect(speaker.options.castPort == 8009 && !speaker.options.controlEndpointEnabled)
        #expect(speaker.configuration.statusInterval == nil, "no periodic status unless asked")
    }

    @Test(arguments: [
        ("not json", FleetConfigurationError.Code.invalidJSON, ""),
        (#"{}"#, .missingValue, "devices"),
        (#"{"devices": []}"#, .invalidValue, "devices"),
        (#"{"devices": [{}]}"#, .missingValue, "devices[0].name"),
        (#"{"devices": [{"name": "A", "colour": "red"}]}"#, .unknownMember, "devices[0].colour"),
        (#"{"device": []}"#, .unknownMember, "device"),
        (#"{"devices": [{"name": "A", "id": "xyz"}]}"#, .invalidValue, "devices[0].id"),
        (#"{"devices": [{"name": "A", "capabilities": ["teleport"]}]}"#, .invalidValue, "devices[0].capabilities"),
        (#"{"devices": [{"name": "A", "castPort": 70000}]}"#, .invalidValue, "devices[0].castPort"),
        (#"{"devices": [{"name": "A", "volume": 2}]}"#, .invalidValue, "devices[0].volume"),
        (#"{"devices": [{"name": "A", "idleScreen": "no"}]}"#, .invalidValue, "devices[0].idleScreen"),
        (#"{"devices": [{"name": "A", "media": "stream"}]}"#, .invalidValue, "devices[0].media"),
        (#"{"devices": [{"name": "A", "media": true}]}"#, .invalidValue, "devices[0].media"),
        (#"{"devices": [{"name": 5}]}"#, .invalidValue, "devices[0].name"),
        (
            #"{"devices": [{"name": "A", "statusIntervalSeconds": 0}]}"#, .invalidValue,
            "devices[0].statusIntervalSeconds"
        ),
        (
            #"{"devices": [{"name": "A", "statusIntervalSeconds": "1"}]}"#, .invalidValue,
            "devices[0].statusIntervalSeconds"
        ),
        (#"{"apps": [{"displayName": "x"}], "devices": [{"name": "A"}]}"#, .missingValue, "apps[0].appId"),
        (
            #"{"apps": [{"appId": "X", "namespaces": ["bad"]}], "devices": [{"name": "A"}]}"#, .invalidValue,
            "apps[0].namespaces"
        ),
        (#"{"devices": [{"name": "A"}, {"name": "B", "apps": 3}]}"#, .invalidValue, "devices[1].apps"),
    ])
    func rejectsBadFilesNamingTheMember(json: String, code: FleetConfigurationError.Code, path: String) {
        do {
            _ = try FleetConfiguration(json: Array(json.utf8))
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.code == code, "\(error)")
            #expect(error.path == path, "\(error)")
        }
    }
}
