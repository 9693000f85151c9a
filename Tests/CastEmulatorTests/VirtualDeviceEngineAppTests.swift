import CastAuth
import CastCore
import CastCrypto
import CastEmulator
import CastNet
import CastTime
import Testing

/// Device authentication, custom apps, Cast Connect, restarts and bad input.
@Suite struct VirtualDeviceEngineAppTests {
    // MARK: Device authentication

    private static func challenge(nonce: [UInt8] = Array(0..<16)) -> CastMessage {
        let challenge = DeviceAuthMessage(challenge: AuthChallenge(senderNonce: nonce, hashAlgorithm: .sha256))
        return CastMessage(
            sourceID: "sender-0",
            destinationID: "receiver-0",
            namespace: .deviceAuth,
            binary: challenge.serializedBytes()
        )
    }

    @Test func withoutCredentialsChallengesGetInternalError() throws {
        var device = DeviceHarness { $0.deviceAuthentication = .unavailable }
        device.open()
        let reply = try #require(device.send(raw: Self.challenge()).sent.first)
        #expect(reply.message.namespace == .deviceAuth)
        #expect(reply.message.payloadType == .binary)
        #expect(reply.message.sourceID == "receiver-0")
        let answer = try DeviceAuthMessage(serializedBytes: try #require(reply.message.payloadBinary))
        #expect(answer.error == AuthError(errorType: .internalError))
        #expect(answer.response == nil)
    }

    @Test func configuredAuthenticationAnswersWithItsResponse() throws {
        var device = DeviceHarness {
            $0.deviceAuthentication = DeviceAuthentication { challenge in
                DeviceAuthMessage(
                    response: AuthResponse(
                        signature: challenge.senderNonce ?? [],
                        clientAuthCertificate: [0x30, 0x00],
                        senderNonce: challenge.senderNonce
                    )
                )
            }
        }
        device.open()
        let reply = try #require(device.send(raw: Self.challenge(nonce: [9, 9, 9])).sent.first)
        let answer = try DeviceAuthMessage(serializedBytes: try #require(reply.message.payloadBinary))
        #expect(answer.response?.signature == [9, 9, 9])
        #expect(answer.response?.senderNonce == [9, 9, 9])
    }

    @Test func aResponderSignsTheNonceAndTheTLSCertificate() throws {
        let device = try SelfSignedCertificate.generate(commonName: "Test Device")
        let tls = try SelfSignedCertificate.generate(commonName: "0123456789abcdef0123456789abcdef")
        let responder = DeviceAuthResponder(
            credentials: .init(
                privateKey: device.privateKey,
                certificateChain: [device.certificate],
                tlsCertificateDER: tls.certificate.derBytes
            )
        )
        var harness = DeviceHarness { $0.deviceAuthentication = .responder(responder) }
        harness.open()
        let nonce = Array(UInt8(100)..<UInt8(116))
        let reply = try #require(harness.send(raw: Self.challenge(nonce: nonce)).sent.first)
        let answer = try DeviceAuthMessage(serializedBytes: try #require(reply.message.payloadBinary))
        let response = try #require(answer.response)
        #expect(response.clientAuthCertificate == device.certificate.derBytes)
        #expect(response.senderNonce == nonce)
        #expect(response.hashAlgorithm == .sha256)
        let key = try device.privateKey.publicKey
        #expect(key.verify(signature: response.signature, data: nonce + tls.certificate.derBytes, digest: .sha256))
        #expect(!key.verify(signature: response.signature, data: nonce + [0], digest: .sha256))
    }

    @Test func malformedAuthMessagesAreDropped() {
        var device = DeviceHarness()
        device.open()
        let garbage = CastMessage(
            sourceID: "sender-0",
            destinationID: "receiver-0",
            namespace: .deviceAuth,
            binary: [0x0A, 0xFF]
        )
        #expect(device.send(raw: garbage).sent.isEmpty)
        let text = CastMessage(sourceID: "sender-0", destinationID: "receiver-0", namespace: .deviceAuth, text: "{}")
        let actions = device.send(raw: text)
        #expect(actions.sent.isEmpty)
        #expect(actions.logs.contains { $0.metadata["cast.reason"] == "not a device-auth challenge" })
        let response = DeviceAuthMessage(error: AuthError(errorType: .noTLS))
        let notAChallenge = CastMessage(
            sourceID: "sender-0",
            destinationID: "receiver-0",
            namespace: .deviceAuth,
            binary: response.serializedBytes()
        )
        #expect(device.send(raw: notAChallenge).sent.isEmpty)
    }

    // MARK: Custom apps

    static let helloNamespace: CastNamespace = "urn:x-cast:com.google.cast.sample.helloworld"

    private static func helloDevice() -> DeviceHarness {
        DeviceHarness {
            $0.applications.append(
                ReceiverAppDefinition(appID: "4F8B3483", displayName: "HelloWorld", namespaces: [helloNamespace])
            )
        }
    }

    @Test func customNamespacesEchoTheirMessages() throws {
        var device = Self.helloDevice()
        device.open()
        device.connectPlatform()
        let (transportID, _) = device.launch("4F8B3483")
        let status = try #require(device.engine.runningApplication)
        #expect(status.namespaces == [ApplicationNamespace(name: Self.helloNamespace.rawValue)])
        device.connectApp(transportID, sender: "sender-7")
        let actions = device.send("Hello, device", namespace: Self.helloNamespace, from: "sender-7", to: transportID)
        let echo = try #require(actions.sent.first)
        #expect(echo.message.sourceID == transportID)
        #expect(echo.message.destinationID == "sender-7")
        #expect(echo.message.namespace == Self.helloNamespace)
        #expect(echo.message.payloadUTF8 == "Hello, device")
        #expect(actions.logs.contains { $0.message == "custom message echoed" })
    }

    @Test func appsIgnoreNamespacesTheyDoNotDeclare() {
        var device = Self.helloDevice()
        device.open()
        device.connectPlatform()
        let (transportID, _) = device.launch("4F8B3483")
        device.connectApp(transportID)
        let media = device.media(#"{"type":"GET_STATUS","requestId":1}"#, transportID: transportID)
        #expect(media.sent.isEmpty)
        let other = device.send("hi", namespace: "urn:x-cast:com.example.other", to: transportID)
        #expect(other.sent.isEmpty)
        #expect(other.logs.first?.metadata["cast.reason"] == "namespace not handled by the application")
    }

    /// The media receiver with the codelab's text channel plays media and answers on the
    /// HelloWorld namespace, under the Default Media Receiver's id.
    @Test func theMediaReceiverWithTheTextChannelPlaysAndAnswers() throws {
        var device = DeviceHarness {
            $0.applications = $0.applications.map {
                $0.appID == "CC1AD845" ? ReceiverAppDefinition.mediaReceiverWithTextChannel : $0
            }
        }
        let transportID = device.startMediaApp()
        let running = try #require(device.engine.runningApplication)
        #expect(running.appID == "CC1AD845")
        #expect(running.namespaces?.contains(ApplicationNamespace(name: Self.helloNamespace.rawValue)) == true)
        #expect(running.supports(namespace: CastNamespace.media.rawValue))
        let status = device.media(#"{"type":"GET_STATUS","requestId":1}"#, transportID: transportID)
        #expect(!status.payloads(namespace: .media, type: "MEDIA_STATUS").isEmpty)
        let reply = device.send("Hello World", namespace: Self.helloNamespace, to: transportID)
        #expect(reply.sent.first?.message.payloadUTF8 == "Hello World")
        #expect(reply.sent.first?.message.namespace == Self.helloNamespace)
        #expect(CastNamespace(custom: Self.helloNamespace.rawValue) != nil, "a sender may open the channel")
    }

    @Test func theDefaultMediaReceiverIgnoresPlayerMessages() {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let actions = device.send(
            #"{"type":"X"}"#,
            namespace: ReceiverAppDefinition.playerMessageNamespace,
            to: transportID
        )
        #expect(actions.sent.isEmpty)
        #expect(!actions.logs.isEmpty)
    }

    // MARK: Cast Connect

    private static func castConnectDevice() -> DeviceHarness {
        DeviceHarness {
            $0.applications.append(
                ReceiverAppDefinition(
                    appID: "ABCDEF12",
                    displayName: "TV App",
                    namespaces: [.media],
                    androidTV: .init(nativeAppID: "2C6A6E3D")
                )
            )
        }
    }

    private static let castConnectLaunch =
        #"{"type":"LAUNCH","requestId":3,"appId":"ABCDEF12","language":"en-US","supportedAppTypes":["WEB","ANDROID_TV"],"appParams":{"launchCheckerParams":{"credentialsData":{"credentials":"user-token","credentialsType":"ios"}}}}"#

    @Test func castConnectLaunchesTheAndroidTVVariant() throws {
        var device = Self.castConnectDevice()
        device.open()
        device.connectPlatform()
        let actions = device.send(Self.castConnectLaunch, namespace: .receiver)
        let app = try #require(actions.payloads(namespace: .receiver).first?["status"]?["applications"]?[0])
        #expect(app["appType"] == "ANDROID_TV")
        #expect(app["appId"] == "2C6A6E3D")
        #expect(app["universalAppId"] == "ABCDEF12")
        let log = try #require(actions.logs.first { $0.message == "launch credentials received" })
        #expect(log.metadata["cast.credentials"] == "user-token")
        #expect(log.metadata["cast.credentials-type"] == "ios")
    }

    @Test func withoutAndroidTVSupportTheWebVariantRuns() throws {
        var device = Self.castConnectDevice()
        device.open()
        device.connectPlatform()
        let actions = device.send(
            #"{"type":"LAUNCH","requestId":3,"appId":"ABCDEF12","supportedAppTypes":["WEB"]}"#,
            namespace: .receiver
        )
        let app = try #require(actions.payloads(namespace: .receiver).first?["status"]?["applications"]?[0])
        #expect(app["appType"] == "WEB")
        #expect(app["appId"] == "ABCDEF12")
        #expect(app["universalAppId"] == "ABCDEF12")
    }

    @Test func castConnectCredentialsAreVisibleInMediaStatus() throws {
        var device = Self.castConnectDevice()
        device.open()
        device.connectPlatform()
        let launch = device.send(Self.castConnectLaunch, namespace: .receiver)
        let transportID = try #require(
            launch.payloads(namespace: .receiver).first?["status"]?["applications"]?[0]?["transportId"]?.stringValue
        )
        device.connectApp(transportID)
        let load = device.media(
            #"{"type":"LOAD","requestId":4,"media":{"contentId":"http://m/a.mp4","contentType":"video/mp4"},"credentials":"web-cred","credentialsType":"ios","atvCredentials":"atv-cred","atvCredentialsType":"android"}"#,
            transportID: transportID
        )
        #expect(load.logs.contains { $0.message == "load credentials received" })
        let status = try #require(device.engine.mediaStatus(at: device.now))
        #expect(
            status.customData
                == [
                    "appType": "ANDROID_TV",
                    "launchCredentials": ["credentials": "user-token", "credentialsType": "ios"],
                    "loadCredentials": [
                        "credentials": "web-cred", "credentialsType": "ios", "atvCredentials": "atv-cred",
                        "atvCredentialsType": "android",
                    ],
                ]
        )
    }

    @Test func ordinaryAppsReportNoCredentials() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        device.media(
            #"{"type":"LOAD","requestId":4,"media":{"contentId":"http://m/a.mp4"},"credentials":"secret"}"#,
            transportID: transportID
        )
        #expect(device.engine.mediaStatus(at: device.now)?.customData == nil)
    }

    // MARK: Restart fault

    @Test func restartGivesTheAppNewIDsAndEndsItsMediaSession() throws {
        var device = DeviceHarness()
        let oldTransport = device.startMediaApp()
        device.open(2)
        device.connectPlatform(2, sender: "client-2")
        _ = device.loadAndPlay(transportID: oldTransport)
        let oldSession = try #require(device.engine.runningApplication?.sessionID)
        let actions = device.engine.restartApplication(at: device.now)
        let app = try #require(device.engine.runningApplication)
        #expect(app.appID == "CC1AD845")
        #expect(app.sessionID != oldSession)
        #expect(app.transportID != oldTransport)
        let close = try #require(actions.sent(to: 1).first { $0.json?["type"] == "CLOSE" })
        #expect(close.sourceID == oldTransport)
        let broadcasts = actions.payloads(namespace: .receiver, type: "RECEIVER_STATUS")
        #expect(broadcasts.count == 2)
        #expect(broadcasts.allSatisfy { $0["requestId"] == 0 })
        #expect(actions.contains(.appsChanged))
        #expect(device.engine.mediaStatus(at: device.now) == nil)
        #expect(device.engine.nextDeadline != nil)
        let stale = device.media(#"{"type":"GET_STATUS","requestId":3}"#, transportID: oldTransport)
        #expect(stale.sent.isEmpty)
    }

    // MARK: Connections and bad input

    @Test func closedConnectionsAreForgotten() {
        var device = DeviceHarness()
        device.open(1)
        device.open(2)
        #expect(device.engine.connectionCount == 2)
        _ = device.engine.connectionClosed(1, at: device.now)
        #expect(device.engine.connectionCount == 1)
        let unknown = device.send(#"{"type":"PING"}"#, namespace: .heartbeat, on: 9)
        #expect(unknown.logs.contains { $0.message == "message on an unknown connection" })
        #expect(unknown.sent.count == 1)
    }

    @Test func aFloodOfRequestsIsAnsweredOneByOne() {
        var device = DeviceHarness()
        device.open()
        device.connectPlatform()
        var replies = 0
        for requestID in 1...5_000 {
            let actions = device.send(#"{"type":"GET_STATUS","requestId":\#(requestID)}"#, namespace: .receiver)
            replies += actions.payloads(namespace: .receiver).filter { $0["requestId"]?.intValue == requestID }.count
        }
        #expect(replies == 5_000)
        for index in 0..<1_000 {
            device.send("{\"type\":\"GET_STATUS\",\"requestId\":\(index)", namespace: .receiver)
            device.send(#"{"type":"CONNECT"}"#, namespace: .connection, from: "s\(index)")
        }
        #expect(device.engine.connectionCount == 1)
        #expect(device.send(#"{"type":"GET_STATUS","requestId":1}"#, namespace: .receiver).sent.count == 1)
    }

    @Test func aClockThatGoesBackwardsIsHeldAtItsLatestInstant() {
        var device = DeviceHarness()
        device.open()
        device.connectPlatform()
        device.advance(by: .seconds(3))
        let earlier = device.engine.tick(at: .seconds(1))
        #expect(earlier.isEmpty)
        #expect(device.engine.nextDeadline == .seconds(5))
    }
}
