import CastCore
import CastEmulator
import Testing

@Suite struct VirtualDeviceEngineTests {
    // MARK: pychromecast's opening sequence

    @Test func pychromecastConnectSequence() throws {
        var device = DeviceHarness()
        device.open()
        let connected = device.connectPlatform()
        #expect(connected.sent.isEmpty, "CONNECT without a protocol version gets no reply")

        let status = device.send(#"{"type":"GET_STATUS","requestId":1}"#, namespace: .receiver)
        let reply = try #require(status.sent.first)
        #expect(reply.connection == 1)
        #expect(reply.message.sourceID == "receiver-0")
        #expect(reply.message.destinationID == "sender-0")
        #expect(reply.message.namespace == .receiver)
        let json = try #require(reply.message.json)
        #expect(json["type"] == "RECEIVER_STATUS")
        #expect(json["requestId"] == 1)
        let app = try #require(json["status"]?["applications"]?[0])
        #expect(app["appId"] == "E8C28D3C")
        #expect(app["isIdleScreen"] == true)
        #expect(json["status"]?["isActiveInput"] == true)
        #expect(json["status"]?["isStandBy"] == false)
        #expect(
            json["status"]?["volume"] == [
                "controlType": "attenuation", "level": 1, "muted": false, "stepInterval": 0.05,
            ]
        )

        let ping = device.send(#"{"type":"PING","requestId":2}"#, namespace: .heartbeat)
        let pong = try #require(ping.sent.first?.message)
        #expect(pong.namespace == .heartbeat)
        #expect(pong.sourceID == "receiver-0")
        #expect(pong.destinationID == "sender-0")
        #expect(pong.json == ["type": "PONG"])
    }

    @Test func launchRepliesWithTheMediaNamespaceAndIds() throws {
        var device = DeviceHarness()
        device.open()
        device.connectPlatform()
        let actions = device.send(#"{"type":"LAUNCH","appId":"CC1AD845","requestId":3}"#, namespace: .receiver)
        let reply = try #require(actions.payloads(namespace: .receiver).first)
        #expect(reply["type"] == "RECEIVER_STATUS")
        #expect(reply["requestId"] == 3)
        let app = try #require(reply["status"]?["applications"]?[0])
        #expect(app["appId"] == "CC1AD845")
        #expect(app["displayName"] == "Default Media Receiver")
        #expect(app["isIdleScreen"] == false)
        #expect(app["appType"] == "WEB")
        #expect(app["universalAppId"] == "CC1AD845")
        let namespaces = app["namespaces"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(namespaces.contains("urn:x-cast:com.google.cast.media"))
        #expect(namespaces.contains("urn:x-cast:com.google.cast.player.message"))
        let sessionId = try #require(app["sessionId"]?.stringValue)
        let transportId = try #require(app["transportId"]?.stringValue)
        #expect(sessionId.count == 36 && sessionId.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
        #expect(transportId.count == 36)
        #expect(sessionId != transportId)
        #expect(actions.contains(.appsChanged))
        #expect(actions.contains(.receiverStatusChanged))
    }

    @Test func connectToTransportThenMediaGetStatus() throws {
        var device = DeviceHarness()
        let transportId = device.startMediaApp()
        let actions = device.media(#"{"type":"GET_STATUS","requestId":4}"#, transportId: transportId)
        let reply = try #require(actions.sent.first?.message)
        #expect(reply.sourceID == transportId)
        #expect(reply.namespace == .media)
        #expect(reply.json == ["type": "MEDIA_STATUS", "requestId": 4, "status": []])
    }
}
