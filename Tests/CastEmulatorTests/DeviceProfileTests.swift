import CastCore
import CastNet
import CastNetCore
import CastTestSupport
import CastTime
import Foundation
import Testing

@testable import CastEmulator

/// Each device profile speaks like the real devices of its class: its RECEIVER_STATUS,
/// MEDIA_STATUS and eureka_info are compared key by key with the payloads captured from
/// that class of hardware (`shared/testdata/real-devices`).
///
/// For every part compared (the status, its volume, its running app, its equaliser, the
/// media status and its media, the setup document):
/// 1. every member that all captures of the class carry in the same situation (idle, an app
///    running, media playing) is present, with the same JSON type;
/// 2. no member appears that no real device of any class sends (the setup document is
///    exempt: pychromecast reads `device_info`, which the captured requests left out);
/// 3. the values that make the class (volume control and step, equaliser, HDMI-CEC state)
///    are the real ones.
@Suite(.requires(.realDevicePayloads)) struct DeviceProfileTests {
    // MARK: Captures by class

    /// The class of a captured payload, from its device description; `nil` when the
    /// capture does not say (an unnamed device, a speaker-or-display, a group endpoint).
    static func captureClass(of record: RealDevicePayloads.Record) -> DeviceProfile.Kind? {
        let device = record.device
        func has(_ text: String) -> Bool { device.localizedCaseInsensitiveContains(text) }
        if has("group leader") || has("speaker/display") || has("display/speaker")
            || device.hasPrefix("unknown Cast device")
        {
            return nil
        }
        if has("Nest Hub") || device.hasPrefix("unknown Cast display") { return .display }
        if has("Cast built-in TV") || has("HDMI output") || has("Shield") { return .television }
        if has("speaker") || has("Google Home") || has("Chromecast Audio") { return .speaker }
        if device.hasPrefix("Chromecast") { return .hdmiDongle }
        return nil
    }

    /// The captures of `kind` for `profile`'s class; Google TV, of which there are none, is
    /// held to the Cast built-in TVs (the same Android TV receiver on HDMI).
    static func captures(_ kind: String, of profile: DeviceProfile) throws -> [JSONValue] {
        let wanted: DeviceProfile.Kind = profile.kind == .googleTV ? .television : profile.kind
        return try RealDevicePayloads.records(kind: kind).filter { captureClass(of: $0) == wanted }.map {
            try JSONValue(parsing: $0.payload)
        }
    }

    /// Every captured payload of `kind`, whatever the device.
    static func allCaptures(_ kind: String) throws -> [JSONValue] {
        try RealDevicePayloads.records(kind: kind).map { try JSONValue(parsing: $0.payload) }
    }

    // MARK: Member trees

    /// Members whose contents are free-form (app data, metadata fields).
    static let freeForm: Set<String> = ["customData", "metadata", "images"]

    /// Every member path of `value` with its JSON type; array elements merge under `[]`.
    static func members(_ value: JSONValue, _ path: String = "") -> [String: String] {
        var result: [String: String] = [:]
        func walk(_ value: JSONValue, _ path: String) {
            switch value {
            case .object(let object):
                for (key, member) in object where !member.isNull {
                    let memberPath = path.isEmpty ? key : "\(path).\(key)"
                    result[memberPath] = typeName(member)
                    if !freeForm.contains(key) { walk(member, memberPath) }
                }
            case .array(let elements):
                for element in elements { walk(element, "\(path)[]") }
            default:
                break
            }
        }
        walk(value, path)
        return result
    }

    static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "bool"
        case .integer, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Members of a MEDIA_STATUS that echo what the sender put in its LOAD (metadata, tracks,
    /// ad breaks, custom data) rather than what the device adds: rule 1 does not ask for them.
    static func isEcho(_ path: String) -> Bool {
        ["customData", "metadata", "tracks", "breaks", "breakClips", "activeTrackIds", "items[].media."].contains {
            path.contains($0)
        }
    }

    /// Checks rules 1 and 2 for `ours` against the class captures and all captures.
    static func compare(
        _ ours: JSONValue,
        classCaptures: [JSONValue],
        allCaptures: [JSONValue]?,
        what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [String] {
        let mine = members(ours)
        var compared: [String] = []
        if let first = classCaptures.first {
            var common = members(first)
            for capture in classCaptures.dropFirst() {
                let other = members(capture)
                common = common.filter { other[$0.key] != nil }
            }
            for (path, type) in common.sorted(by: { $0.key < $1.key }) where !isEcho(path) {
                compared.append(path)
                let found = mine[path]
                #expect(
                    found != nil,
                    "\(what): \(path) missing (every real one has it)",
                    sourceLocation: sourceLocation
                )
                if let found {
                    let types = Set(classCaptures.compactMap { members($0)[path] })
                    #expect(
                        types.contains(found) || types.contains("null"),
                        "\(what): \(path) is a \(found), real ones \(types)",
                        sourceLocation: sourceLocation
                    )
                    _ = type
                }
            }
        }
        if let allCaptures {
            var known: Set<String> = []
            for capture in allCaptures { known.formUnion(members(capture).keys) }
            for path in mine.keys.sorted() where !known.contains(path) {
                Issue.record("\(what): \(path) is sent by no real device", sourceLocation: sourceLocation)
            }
        }
        return compared
    }

    // MARK: What a device of a profile sends

    static func harness(_ profile: DeviceProfile) -> DeviceHarness {
        DeviceHarness {
            $0 = VirtualDeviceConfiguration(
                identity: $0.identity,
                profile: profile,
                randomSeed: DeviceHarness.defaultSeed
            )
        }
    }

    static func receiverStatus(_ device: inout DeviceHarness, requestID: Int) throws -> JSONValue {
        let actions = device.send(#"{"type":"GET_STATUS","requestId":\#(requestID)}"#, namespace: .receiver)
        return try #require(actions.payloads(namespace: .receiver, type: "RECEIVER_STATUS").first)
    }

    /// The idle status, the status with the Default Media Receiver running and a sender
    /// connected to it, the MEDIA_STATUS of media playing, and the setup document.
    static func sample(_ profile: DeviceProfile) throws -> (idle: JSONValue, running: JSONValue, media: JSONValue) {
        var device = harness(profile)
        device.open()
        device.connectPlatform()
        let idle = try receiverStatus(&device, requestID: 1)
        let (transportID, _) = device.launch()
        device.connectApp(transportID)
        let running = try receiverStatus(&device, requestID: 2)
        _ = device.loadAndPlay(transportID: transportID)
        let actions = device.media(#"{"type":"GET_STATUS","requestId":3}"#, transportID: transportID)
        let media = try #require(actions.payloads(namespace: .media, type: "MEDIA_STATUS").first)
        return (idle, running, media)
    }

    static func isIdle(_ status: JSONValue) -> Bool {
        let apps = status["status"]?["applications"]?.arrayValue ?? []
        return apps.allSatisfy { $0["isIdleScreen"]?.boolValue == true || $0["appId"]?.stringValue == "E8C28D3C" }
    }

    static let profiles: [DeviceProfile] = [.hdmiDongle, .googleTV, .speaker, .display, .television]

    // MARK: Tests

    @Test(arguments: profiles.map(\.kind.rawValue))
    func receiverStatusHasTheMembersOfItsClass(kind: String) throws {
        let profile = try #require(Self.profiles.first { $0.kind.rawValue == kind })
        let (idle, running, _) = try Self.sample(profile)
        let captures = try Self.captures("RECEIVER_STATUS", of: profile)
        let all = try Self.allCaptures("RECEIVER_STATUS")
        #expect(!captures.isEmpty, "no captures for \(kind)")
        let idleCaptures = captures.filter(Self.isIdle)
        let runningCaptures = captures.filter { !Self.isIdle($0) }
        var compared: [String] = []
        if !idleCaptures.isEmpty {
            compared += Self.compare(idle, classCaptures: idleCaptures, allCaptures: all, what: "\(kind) idle")
        }
        compared += Self.compare(running, classCaptures: runningCaptures, allCaptures: all, what: "\(kind) running")
        #expect(compared.contains("status.volume.level"), "\(compared)")
        // The values that make the class.
        for status in [idle, running] {
            let volume = try #require(status["status"]?["volume"])
            #expect(volume["controlType"]?.stringValue == profile.volumeControlType.rawValue)
            #expect(volume["stepInterval"] == .double(profile.volumeStepInterval))
            #expect(status["status"]?["userEq"] == profile.userEq)
            #expect((status["status"]?["isActiveInput"] != nil) == (profile.inputState != nil))
            #expect((status["status"]?["isStandBy"] != nil) == (profile.inputState != nil))
        }
        // A float32 step like the class's own, where the captures have one.
        let steps = Set(captures.compactMap { $0["status"]?["volume"]?["stepInterval"]?.doubleValue })
        if profile.kind != .hdmiDongle {
            #expect(steps.contains(profile.volumeStepInterval), "\(kind): \(profile.volumeStepInterval) vs \(steps)")
        }
        // The equaliser is one a real device of the class reports.
        let equalisers = captures.compactMap { $0["status"]?["userEq"] }
        if !equalisers.isEmpty {
            #expect(equalisers.contains(profile.userEq), "\(kind): \(profile.userEq) vs \(equalisers)")
        }
        // Idle: recent speakers and Google TV leave `applications` out.
        #expect((idle["status"]?["applications"] == nil) == !profile.listsApplicationsWhenIdle)
    }

    @Test(arguments: profiles.map(\.kind.rawValue))
    func mediaStatusHasTheMembersOfItsClass(kind: String) throws {
        let profile = try #require(Self.profiles.first { $0.kind.rawValue == kind })
        let (_, _, media) = try Self.sample(profile)
        // Real statuses of media past loading (PLAYING, PAUSED, BUFFERING with media).
        let captures = try Self.captures("MEDIA_STATUS", of: profile).filter { capture in
            guard let entry = capture["status"]?[0], entry["media"] != nil else { return false }
            return entry["extendedStatus"] == nil && entry["playerState"]?.stringValue != "IDLE"
        }
        let all = try Self.allCaptures("MEDIA_STATUS")
        if captures.isEmpty {
            // No capture of the class shows media past loading (the Nest Hub's show loads):
            // held to every such capture of any class.
            let anyClass = all.filter { capture in
                guard let entry = capture["status"]?[0], entry["media"] != nil else { return false }
                return entry["extendedStatus"] == nil && entry["playerState"]?.stringValue != "IDLE"
            }
            _ = Self.compare(media, classCaptures: anyClass, allCaptures: all, what: "\(kind) media (any class)")
        } else {
            _ = Self.compare(media, classCaptures: captures, allCaptures: all, what: "\(kind) media")
        }
        #expect(media["status"]?[0]?["playerState"] == "PLAYING")
    }

    @Test(arguments: profiles.map(\.kind.rawValue))
    func setupDocumentHasTheMembersOfItsClass(kind: String) throws {
        let profile = try #require(Self.profiles.first { $0.kind.rawValue == kind })
        var identity = DeviceIdentity(friendlyName: "Profile Test", deviceID: "0123456789abcdef0123456789abcdef")
        identity.capabilities = profile.capabilities
        let info = EurekaInfo(
            identity: identity,
            options: DeviceServerOptions(address: "127.0.0.9"),
            uptime: 12.5,
            profile: profile
        )
        let document = try JSONValue(parsing: info.bytes)
        var captures = try Self.captures("EUREKA_INFO", of: profile)
        // No capture of a display: held to the members every captured device has.
        if captures.isEmpty { captures = try Self.allCaptures("EUREKA_INFO") }
        let compared = Self.compare(document, classCaptures: captures, allCaptures: nil, what: "\(kind) eureka_info")
        #expect(compared.contains("ssdp_udn") && compared.contains("name"), "\(compared)")
        let capabilities = document["device_info"]?["capabilities"]
        #expect(capabilities?["display_supported"]?.boolValue == profile.capabilities.contains(.videoOut))
        #expect(capabilities?["multizone_supported"]?.boolValue == profile.supportsMultizone)
        // The SDK reads it back.
        let read = try DeviceSetupInfo(jsonBytes: info.bytes)
        #expect(read.name == "Profile Test")
        #expect(read.deviceID == CastDevice.parseID(identity.deviceID))
        #expect(read.displaySupported == profile.capabilities.contains(.videoOut))
    }

    @Test func speakersAreAudioOnlyInMDNSAndSetup() throws {
        let identity = DeviceIdentity(
            friendlyName: "Kitchen",
            deviceID: "0123456789abcdef0123456789abcdef",
            modelName: "Google Nest Mini"
        )
        let configuration = VirtualDeviceConfiguration(
            identity: identity,
            profile: DeviceProfile(model: "Google Nest Mini")
        )
        #expect(configuration.profile.kind == .speaker)
        #expect(!configuration.identity.capabilities.contains(.videoOut))
        let advertisement = DeviceAdvertisement(
            identity: configuration.identity,
            address: "127.0.0.7",
            port: 8009,
            status: .idle,
            applicationIDs: ["CC1AD845"]
        )
        let service = MDNSDeviceAdvertiser.service(for: advertisement)
        let ca = try #require(service.txt["ca"].flatMap { Int($0) })
        #expect(ca == 196_612, "the mask real speakers report")
        #expect(ca & 1 == 0, "no video_out")
        #expect(ca & 4 != 0, "audio_out")
        // Discovery on the sender side sees an audio device.
        let found = try #require(
            CastDevice(serviceName: "x", hostName: "h", port: 8009, addresses: [], txt: service.txt)
        )
        #expect(found.capabilities.contains(.audioOut) && !found.capabilities.contains(.videoOut))
    }

    @Test(arguments: [
        ("Chromecast", DeviceProfile.Kind.hdmiDongle), ("Chromecast Ultra", .hdmiDongle),
        ("Chromecast with Google TV", .googleTV), ("Google Home", .speaker), ("Google Nest Mini", .speaker),
        ("Google Home Mini", .speaker), ("Chromecast Audio", .speaker), ("Google Nest Audio", .speaker),
        ("Google Nest Hub", .display), ("Google Home Hub", .display), ("Google Nest Hub Max", .display),
        ("SHIELD Android TV", .television), ("Living Room TV", .television), ("speaker", .speaker),
        ("tv", .television), ("Something Else", .hdmiDongle), ("Smart Home TV", .television),
    ])
    func modelsSelectTheirProfile(model: String, kind: DeviceProfile.Kind) {
        #expect(DeviceProfile(model: model).kind == kind)
    }

    @Test func fixedVolumeIgnoresSetVolumeWhole() throws {
        var device = Self.harness(.hdmiDongle)
        device.open()
        device.connectPlatform()
        for request in [#"{"level":0.3}"#, #"{"muted":true}"#] {
            let actions = device.send(
                #"{"type":"SET_VOLUME","requestId":7,"volume":\#(request)}"#,
                namespace: .receiver
            )
            let reply = try #require(actions.payloads(namespace: .receiver, type: "RECEIVER_STATUS").first)
            #expect(reply["requestId"] == 7)
            #expect(reply["status"]?["volume"]?["level"] == 1)
            #expect(reply["status"]?["volume"]?["muted"] == false)
            #expect(actions.logs.contains { $0.message.contains("fixed") })
        }
    }

    @Test func volumeLevelsLeaveTheDeviceAsFloat32() throws {
        var device = Self.harness(.speaker)
        device.open()
        device.connectPlatform()
        let actions = device.send(#"{"type":"SET_VOLUME","requestId":4,"volume":{"level":0.3}}"#, namespace: .receiver)
        let reply = try #require(actions.payloads(namespace: .receiver, type: "RECEIVER_STATUS").first)
        // 0.30000001192092896, as a real speaker reports 0.3 (captured in MULTIZONE_STATUS).
        #expect(reply["status"]?["volume"]?["level"] == .double(Double(Float(0.3))))
        #expect(reply["status"]?["volume"]?["stepInterval"] == .double(0.019999999552965164))
        // The stream volume too.
        let (transportID, _) = device.launch()
        device.connectApp(transportID)
        let mediaSession = device.loadAndPlay(transportID: transportID)
        let stream = device.media(
            #"{"type":"SET_VOLUME","requestId":5,"mediaSessionId":\#(mediaSession),"volume":{"level":0.3}}"#,
            transportID: transportID
        )
        let media = try #require(stream.payloads(namespace: .media, type: "MEDIA_STATUS").first)
        #expect(media["status"]?[0]?["volume"]?["level"] == .double(Double(Float(0.3))))
        // The generic profile keeps exact levels.
        var generic = DeviceHarness()
        generic.open()
        generic.connectPlatform()
        let exact = generic.send(#"{"type":"SET_VOLUME","requestId":4,"volume":{"level":0.3}}"#, namespace: .receiver)
        #expect(
            exact.payloads(namespace: .receiver, type: "RECEIVER_STATUS").first?["status"]?["volume"]?["level"] == 0.3
        )
    }

    @Test func tvInputStateFlipsByControlAndWakesForALaunch() throws {
        var device = Self.harness(.television)
        device.open()
        device.connectPlatform()
        let standby = device.engine.setInputState(
            DeviceInputState(isActiveInput: false, isStandBy: true),
            at: device.now
        )
        let broadcast = try #require(standby.payloads(namespace: .receiver, type: "RECEIVER_STATUS").first)
        #expect(broadcast["requestId"] == 0)
        #expect(broadcast["status"]?["isStandBy"] == true)
        #expect(broadcast["status"]?["isActiveInput"] == false)
        // The same state again sends nothing.
        let again = device.engine.setInputState(DeviceInputState(isActiveInput: false, isStandBy: true), at: device.now)
        #expect(again.payloads(namespace: .receiver).isEmpty)
        // A launch wakes the TV onto the Cast input, as the captured TV did.
        let launch = device.send(#"{"type":"LAUNCH","appId":"CC1AD845","requestId":9}"#, namespace: .receiver)
        let reply = try #require(launch.payloads(namespace: .receiver, type: "RECEIVER_STATUS").first)
        #expect(reply["status"]?["isStandBy"] == false)
        #expect(reply["status"]?["isActiveInput"] == true)
        // A speaker has no HDMI input: nothing changes.
        var speaker = Self.harness(.speaker)
        speaker.open()
        speaker.connectPlatform()
        let ignored = speaker.engine.setInputState(
            DeviceInputState(isActiveInput: true, isStandBy: true),
            at: speaker.now
        )
        #expect(ignored.payloads(namespace: .receiver).isEmpty)
        #expect(speaker.engine.receiverStatus.isStandBy == nil)
    }

    @Test func senderConnectedFollowsConnectionsToTheApp() throws {
        var device = Self.harness(.speaker)
        device.open()
        device.connectPlatform()
        let (transportID, _) = device.launch()
        #expect(device.engine.runningApplication?.senderConnected == false)
        let connect = device.connectApp(transportID)
        let update = try #require(connect.payloads(namespace: .receiver, type: "RECEIVER_STATUS").first)
        #expect(update["status"]?["applications"]?[0]?["senderConnected"] == true)
        let close = device.send(#"{"type":"CLOSE"}"#, namespace: .connection, to: transportID)
        let after = try #require(close.payloads(namespace: .receiver, type: "RECEIVER_STATUS").first)
        #expect(after["status"]?["applications"]?[0]?["senderConnected"] == false)
    }

    @Test func configurationFileSelectsProfilesByModelOrName() throws {
        let json = #"""
            {"devices": [
              {"name": "Den", "model": "Google Nest Mini"},
              {"name": "Wall", "model": "Google Nest Hub"},
              {"name": "Box", "model": "Acme Box", "profile": "tv"},
              {"name": "Stick"},
              {"name": "Odd", "model": "Google Home", "capabilities": ["video_out", "audio_out"]}
            ]}
            """#
        let fleet = try FleetConfiguration(json: Array(json.utf8))
        #expect(
            fleet.devices.map(\.configuration.profile.kind) == [.speaker, .display, .television, .hdmiDongle, .speaker]
        )
        #expect(fleet.devices[0].configuration.identity.capabilities == DeviceProfile.speaker.capabilities)
        #expect(fleet.devices[0].configuration.idleScreenAppID == nil)
        #expect(fleet.devices[3].configuration.volumeControlType == .fixed)
        // Explicit capabilities win over the profile's.
        #expect(fleet.devices[4].configuration.identity.capabilities == .videoDevice)
        #expect(throws: FleetConfigurationError.self) {
            try FleetConfiguration(json: Array(#"{"devices": [{"name": "A", "profile": "toaster"}]}"#.utf8))
        }
        do {
            _ = try FleetConfiguration(json: Array(#"{"devices": [{"name": "A", "profile": 3}]}"#.utf8))
            Issue.record("a numeric profile was accepted")
        } catch {
            #expect(error.path == "devices[0].profile")
        }
        let generated = try FleetConfiguration.generated(count: 1, model: "Google Home")
        #expect(generated.devices[0].configuration.profile.kind == .speaker)
    }
}
