import CastCore
import CastEmulator
import CastTime
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

    @Test func launchRepliesWithTheMediaNamespaceAndIDs() throws {
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
        let sessionID = try #require(app["sessionId"]?.stringValue)
        let transportID = try #require(app["transportId"]?.stringValue)
        #expect(sessionID.count == 36 && sessionID.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
        #expect(transportID.count == 36)
        #expect(sessionID != transportID)
        #expect(actions.contains(.appsChanged))
        #expect(actions.contains(.receiverStatusChanged))
    }

    @Test func connectToTransportThenMediaGetStatus() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let actions = device.media(#"{"type":"GET_STATUS","requestId":4}"#, transportID: transportID)
        let reply = try #require(actions.sent.first?.message)
        #expect(reply.sourceID == transportID)
        #expect(reply.namespace == .media)
        #expect(reply.json == ["type": "MEDIA_STATUS", "requestId": 4, "status": []])
    }
}

// MARK: - Virtual connections

extension VirtualDeviceEngineTests {
    @Test(arguments: [
        (#"{"type":"CONNECT","protocolVersion":0}"#, 0),
        (#"{"type":"CONNECT","protocolVersionList":[0,1,2,3]}"#, 3),
        (#"{"type":"CONNECT","protocolVersionList":[1,2]}"#, 0),
    ])
    func connectedRepliesWithTheNegotiatedVersion(connect: String, version: Int) throws {
        var device = DeviceHarness()
        device.open()
        let actions = device.send(connect, namespace: .connection)
        let reply = try #require(actions.sent.first?.message)
        #expect(reply.namespace == .connection)
        #expect(reply.sourceID == "receiver-0")
        #expect(reply.json == ["type": "CONNECTED", "protocolVersion": .integer(version)])
    }

    @Test func connectToAnUnknownEndpointIsClosed() throws {
        var device = DeviceHarness()
        device.open()
        let actions = device.send(#"{"type":"CONNECT"}"#, namespace: .connection, to: "web-99")
        let close = try #require(actions.sent.first?.message)
        #expect(close.sourceID == "web-99")
        #expect(close.json?["type"] == "CLOSE")
        let status = device.send(#"{"type":"GET_STATUS","requestId":1}"#, namespace: .receiver, to: "web-99")
        #expect(status.sent.isEmpty)
    }

    @Test func connectWithAnInvalidTypeIsClosed() {
        var device = DeviceHarness()
        device.open()
        let actions = device.send(#"{"type":"CONNECT","connType":7}"#, namespace: .connection)
        #expect(actions.payloads(namespace: .connection, type: "CLOSE").count == 1)
        #expect(device.send(#"{"type":"GET_STATUS","requestId":1}"#, namespace: .receiver).sent.isEmpty)
    }

    @Test func messagesBeforeConnectAreDroppedWithALog() throws {
        var device = DeviceHarness()
        device.open()
        let actions = device.send(#"{"type":"GET_STATUS","requestId":1}"#, namespace: .receiver)
        #expect(actions.sent.isEmpty)
        let log = try #require(actions.logs.first { $0.message == "message dropped" })
        #expect(log.level == .warning)
        #expect(log.metadata["cast.reason"] == "no virtual connection")
        #expect(log.metadata["cast.namespace"] == "urn:x-cast:com.google.cast.receiver")
    }

    @Test func closeEndsTheVirtualConnection() {
        var device = DeviceHarness()
        device.open()
        device.connectPlatform()
        device.send(#"{"type":"CLOSE"}"#, namespace: .connection)
        #expect(device.send(#"{"type":"GET_STATUS","requestId":1}"#, namespace: .receiver).sent.isEmpty)
    }

    @Test func tooManyVirtualConnectionsAreRefused() {
        var device = DeviceHarness { $0.maximumVirtualConnectionsPerConnection = 2 }
        device.open()
        device.connectPlatform(sender: "a")
        device.connectPlatform(sender: "b")
        let third = device.connectPlatform(sender: "c")
        #expect(third.payloads(namespace: .connection, type: "CLOSE").count == 1)
        #expect(device.send(#"{"type":"GET_STATUS","requestId":1}"#, namespace: .receiver, from: "c").sent.isEmpty)
        #expect(device.send(#"{"type":"GET_STATUS","requestId":1}"#, namespace: .receiver, from: "b").sent.count == 1)
    }
}

// MARK: - Heartbeat and liveness

extension VirtualDeviceEngineTests {
    @Test func pingIsAnsweredOnAnyEndpoint() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let actions = device.send(#"{"type":"PING"}"#, namespace: .heartbeat, to: transportID)
        let pong = try #require(actions.sent.first?.message)
        #expect(pong.sourceID == transportID)
        #expect(pong.json == ["type": "PONG"])
    }

    @Test func ignoringPingsIsAFault() {
        var device = DeviceHarness()
        device.open()
        device.engine.faults.ignoresPings = true
        let actions = device.send(#"{"type":"PING","requestId":2}"#, namespace: .heartbeat)
        #expect(actions.sent.isEmpty)
        #expect(actions.logs.contains { $0.message == "ping ignored by fault" })
        device.engine.faults.ignoresPings = false
        #expect(device.send(#"{"type":"PING"}"#, namespace: .heartbeat).sent.count == 1)
    }

    @Test func silentSendersArePingedThenClosed() throws {
        var device = DeviceHarness()
        device.answersPings = false
        device.open()
        device.connectPlatform()
        #expect(device.engine.nextDeadline == .seconds(5))
        var pings: [DeviceInstant] = []
        var closedAt: DeviceInstant?
        for _ in 0..<25 {
            let actions = device.advance(by: .seconds(1))
            if !actions.payloads(namespace: .heartbeat, type: "PING").isEmpty { pings.append(device.now) }
            if actions.closes == [1] { closedAt = device.now }
        }
        #expect(pings == [.seconds(5), .seconds(10), .seconds(15)])
        #expect(closedAt == .seconds(20))
        #expect(device.engine.connectionCount == 0)
        #expect(device.engine.nextDeadline == nil)
    }

    @Test func answeringPingsKeepsASenderAlive() {
        var device = DeviceHarness()
        device.open()
        device.connectPlatform()
        for _ in 0..<12 {
            let actions = device.advance(by: .seconds(5))
            #expect(actions.closes.isEmpty)
            #expect(actions.payloads(namespace: .heartbeat, type: "PING").count == 1)
        }
        #expect(device.engine.connectionCount == 1)
    }

    @Test func aMessageAfterAMissedTickKeepsTheSenderAlive() {
        var device = DeviceHarness()
        device.open()
        device.connectPlatform()
        device.now = .seconds(25)
        let actions = device.send(#"{"type":"GET_STATUS","requestId":1}"#, namespace: .receiver)
        #expect(actions.closes.isEmpty)
        #expect(actions.payloads(namespace: .receiver).first?["requestId"] == 1)
        #expect(!actions.logs.contains { $0.message == "message on an unknown connection" })
        #expect(device.engine.nextDeadline == .seconds(30))
    }

    @Test func livenessCanBeDisabled() {
        var device = DeviceHarness { $0.livenessTimeout = nil }
        device.answersPings = false
        device.open()
        #expect(device.advance(by: .seconds(120)).closes.isEmpty)
        #expect(device.engine.connectionCount == 1)
    }
}

// MARK: - Receiver namespace

extension VirtualDeviceEngineTests {
    @Test(arguments: [
        (#"{"type":"LAUNCH","appId":"12345678","requestId":7}"#, "LAUNCH_ERROR", "NOT_FOUND"),
        (#"{"type":"LAUNCH","requestId":7}"#, "LAUNCH_ERROR", "BAD_PARAMETER"),
        (#"{"type":"LAUNCH","appId":"","requestId":7}"#, "LAUNCH_ERROR", "BAD_PARAMETER"),
        (#"{"type":"FROBNICATE","requestId":7}"#, "INVALID_REQUEST", "INVALID_COMMAND"),
        (#"{"requestId":7}"#, "INVALID_REQUEST", "INVALID_COMMAND"),
        (#"{"type":"SET_VOLUME","requestId":7,"volume":{}}"#, "INVALID_REQUEST", "INVALID_PARAMS"),
        (#"{"type":"SET_VOLUME","requestId":7,"volume":"loud"}"#, "INVALID_REQUEST", "INVALID_PARAMS"),
        (#"{"type":"STOP","requestId":7,"sessionId":"nope"}"#, "INVALID_REQUEST", "INVALID_SESSION_ID"),
    ])
    func receiverErrors(request: String, type: String, reason: String) throws {
        var device = DeviceHarness()
        device.open()
        device.connectPlatform()
        let before = device.engine.runningApplication
        let actions = device.send(request, namespace: .receiver)
        let reply = try #require(actions.payloads(namespace: .receiver).first)
        #expect(reply["type"]?.stringValue == type)
        #expect(reply["reason"]?.stringValue == reason)
        #expect(reply["requestId"] == 7)
        #expect(device.engine.runningApplication == before)
        #expect(!actions.contains(.appsChanged))
    }

    @Test(arguments: [#"{"type":"GET_STATUS","#, "[1,2,3]", "", "\u{FEFF}{}"])
    func unparsableReceiverPayloadsAreDropped(payload: String) {
        var device = DeviceHarness()
        device.open()
        device.connectPlatform()
        let actions = device.send(payload, namespace: .receiver)
        #expect(actions.sent.isEmpty)
        #expect(actions.logs.contains { $0.message == "malformed receiver request" })
        #expect(device.send(#"{"type":"GET_STATUS","requestId":1}"#, namespace: .receiver).sent.count == 1)
    }

    @Test func launchingTheRunningAppIsANoOp() {
        var device = DeviceHarness()
        device.open()
        device.connectPlatform()
        let first = device.launch(requestID: 1)
        let actions = device.send(#"{"type":"LAUNCH","appId":"CC1AD845","requestId":2}"#, namespace: .receiver)
        let reply = actions.payloads(namespace: .receiver)
        #expect(reply.count == 1)
        #expect(reply.first?["requestId"] == 2)
        #expect(reply.first?["status"]?["applications"]?[0]?["sessionId"]?.stringValue == first.sessionID)
        #expect(!actions.contains(.appsChanged))
    }

    @Test func launchingAnotherAppStopsTheRunningOne() throws {
        var device = DeviceHarness {
            $0.applications.append(
                ReceiverAppDefinition(
                    appID: "ABCD1234",
                    displayName: "Hello",
                    namespaces: ["urn:x-cast:com.example.hello"]
                )
            )
        }
        let oldTransport = device.startMediaApp()
        device.open(2)
        device.connectApp(oldTransport, on: 2, sender: "client-7")
        let actions = device.send(#"{"type":"LAUNCH","appId":"ABCD1234","requestId":9}"#, namespace: .receiver)
        let closes = actions.sent.filter { $0.message.json?["type"] == "CLOSE" }
        #expect(closes.map(\.connection) == [1, 2])
        #expect(closes.allSatisfy { $0.message.sourceID == oldTransport && $0.message.namespace == .connection })
        #expect(closes.map(\.message.destinationID) == ["sender-0", "client-7"])
        let app = try #require(device.engine.runningApplication)
        #expect(app.appID == "ABCD1234")
        #expect(app.transportID != oldTransport)
        let stale = device.media(#"{"type":"GET_STATUS","requestId":10}"#, transportID: oldTransport)
        #expect(stale.sent.isEmpty)
    }

    @Test func launchRefusalIsAFault() throws {
        var device = DeviceHarness()
        device.open()
        device.connectPlatform()
        device.engine.faults.launchRefusal = .cancelled
        let actions = device.send(#"{"type":"LAUNCH","appId":"CC1AD845","requestId":5}"#, namespace: .receiver)
        #expect(
            actions.payloads(namespace: .receiver).first == [
                "type": "LAUNCH_ERROR", "requestId": 5, "reason": "CANCELLED",
            ]
        )
        #expect(device.engine.runningApplication?.appID == "E8C28D3C")
    }

    @Test func stopReturnsToTheIdleScreen() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let sessionID = try #require(device.engine.runningApplication?.sessionID)
        let actions = device.send(#"{"type":"STOP","requestId":11,"sessionId":"\#(sessionID)"}"#, namespace: .receiver)
        let close = try #require(actions.sent.first { $0.message.json?["type"] == "CLOSE" })
        #expect(close.message.sourceID == transportID)
        let reply = try #require(actions.payloads(namespace: .receiver, type: "RECEIVER_STATUS").first)
        #expect(reply["requestId"] == 11)
        let idle = try #require(reply["status"]?["applications"]?[0])
        #expect(idle["appId"] == "E8C28D3C")
        #expect(idle["isIdleScreen"] == true)
        #expect(actions.contains(.appsChanged))
    }

    @Test func stopWithoutAnIdleScreenLeavesNoApplication() throws {
        var device = DeviceHarness { $0.idleScreenAppID = nil }
        device.open()
        device.connectPlatform()
        #expect(device.engine.receiverStatus.applications == [])
        _ = device.launch()
        let actions = device.send(#"{"type":"STOP","requestId":2}"#, namespace: .receiver)
        let reply = try #require(actions.payloads(namespace: .receiver).first)
        #expect(reply["status"]?["applications"] == [])
    }

    @Test func deviceVolumeIsClampedAndBroadcast() throws {
        var device = DeviceHarness()
        device.open(1)
        device.connectPlatform(1)
        device.open(2)
        device.connectPlatform(2)
        let loud = device.send(#"{"type":"SET_VOLUME","requestId":3,"volume":{"level":1.7}}"#, namespace: .receiver)
        #expect(device.engine.receiverStatus.volume?.level == 1)
        #expect(loud.sent.count == 1, "unchanged volume is not broadcast")
        let quiet = device.send(#"{"type":"SET_VOLUME","requestId":4,"volume":{"level":-0.2}}"#, namespace: .receiver)
        #expect(device.engine.receiverStatus.volume?.level == 0)
        let toSender = quiet.sent.filter { $0.connection == 1 }.compactMap { $0.message.json }
        let toOther = quiet.sent.filter { $0.connection == 2 }.compactMap { $0.message.json }
        #expect(toSender.map { $0["requestId"] } == [4])
        #expect(toOther.map { $0["requestId"] } == [0])
        #expect(toOther.first?["status"]?["volume"]?["level"] == 0)
        #expect(quiet.contains(.receiverStatusChanged))
        device.send(#"{"type":"SET_VOLUME","requestId":5,"volume":{"muted":true}}"#, namespace: .receiver)
        #expect(device.engine.receiverStatus.volume?.muted == true)
        #expect(device.engine.receiverStatus.volume?.level == 0)
    }

    @Test func fixedVolumeIgnoresLevels() {
        var device = DeviceHarness { $0.volumeControlType = .fixed }
        device.open()
        device.connectPlatform()
        device.send(#"{"type":"SET_VOLUME","requestId":3,"volume":{"level":0.3}}"#, namespace: .receiver)
        #expect(device.engine.receiverStatus.volume?.level == 1)
        #expect(device.engine.receiverStatus.volume?.controlType == .fixed)
    }

    @Test func appAvailability() throws {
        var device = DeviceHarness()
        device.open()
        device.connectPlatform()
        let actions = device.send(
            #"{"type":"GET_APP_AVAILABILITY","requestId":6,"appId":["CC1AD845","00000000"]}"#,
            namespace: .receiver
        )
        let reply = try #require(actions.payloads(namespace: .receiver).first)
        #expect(reply["responseType"] == "GET_APP_AVAILABILITY")
        #expect(reply["requestId"] == 6)
        #expect(reply["availability"] == ["CC1AD845": "APP_AVAILABLE", "00000000": "APP_UNAVAILABLE"])
    }

    @Test func launchIsBroadcastToOtherSenders() throws {
        var device = DeviceHarness()
        device.open(1)
        device.connectPlatform(1)
        device.open(2)
        device.connectPlatform(2, sender: "client-2")
        let actions = device.send(#"{"type":"LAUNCH","appId":"CC1AD845","requestId":8}"#, namespace: .receiver)
        let reply = try #require(actions.sent(to: 1).first?.json)
        let broadcast = try #require(actions.sent(to: 2, sender: "client-2").first?.json)
        #expect(reply["requestId"] == 8)
        #expect(broadcast["requestId"] == 0)
        #expect(broadcast["status"] == reply["status"])
    }

    @Test func audioDevicesReportNoInputState() throws {
        var device = DeviceHarness { $0.identity.capabilities = .audioDevice }
        #expect(device.engine.receiverStatus.isActiveInput == nil)
        #expect(device.engine.receiverStatus.isStandBy == nil)
        device.open()
        device.connectPlatform()
        let reply = try #require(device.send(#"{"type":"GET_STATUS","requestId":1}"#, namespace: .receiver).sent.first)
        #expect(reply.message.json?["status"]?["isActiveInput"] == nil)
    }

    @Test func binaryPayloadsOnJSONNamespacesAreReadAsText() throws {
        var device = DeviceHarness()
        device.open()
        device.connectPlatform()
        let message = CastMessage(
            sourceID: "sender-0",
            destinationID: "receiver-0",
            namespace: .receiver,
            binary: Array(#"{"type":"GET_STATUS","requestId":12}"#.utf8)
        )
        let reply = try #require(device.send(raw: message).sent.first?.message.json)
        #expect(reply["requestId"] == 12)
        let invalid = CastMessage(
            sourceID: "sender-0",
            destinationID: "receiver-0",
            namespace: .receiver,
            binary: [0xFF, 0xFE]
        )
        #expect(device.send(raw: invalid).sent.isEmpty)
    }

    @Test func unknownNamespacesAreDropped() {
        var device = DeviceHarness()
        device.open()
        device.connectPlatform()
        let actions = device.send(#"{"type":"GET_STATUS","requestId":1}"#, namespace: .multizone)
        #expect(actions.sent.isEmpty)
        #expect(actions.logs.first?.metadata["cast.reason"] == "namespace not handled")
    }
}
