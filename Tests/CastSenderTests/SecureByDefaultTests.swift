import CastAuth
import CastCore
import CastNet
import CastSenderTestSupport
import CastSync
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender

/// Devices authenticate by default; secrets never reach a device that did not, unless the app
/// opts in. Over real TLS against the virtual device, asserting on what the device received.
@Suite struct SecureByDefaultTests {
    static let credentials = CredentialsData(credentials: #"{"userId":"id123"}"#, credentialsType: "ios")
    static let media = MediaInformation(
        contentID: "https://media.invalid/secure.mp4",
        streamType: .buffered,
        contentType: "video/mp4"
    )

    /// The frames of a type the device received, parsed.
    static func inbound(_ rig: EndToEndRig, _ type: String) throws -> [JSONValue] {
        try rig.log.inbound(type: type).map { try JSONValue(parsing: $0.payload) }
    }

    @Test func theDefaultsRequireAuthenticationAgainstGooglesRootsAndWithholdSecrets() {
        let options = CastOptions(receiverApplicationID: "CC1AD845")
        #expect(options.deviceAuthentication.mode == .required)
        #expect(options.deviceAuthentication.trustsBuiltInRoots)
        #expect(options.deviceAuthentication.additionalTrustAnchors.isEmpty)
        #expect(options.deviceAuthentication.crlPolicy == .optional)
        #expect(options.deviceAuthentication.trustAnchors == CastTrustAnchors.deviceRoots)
        #expect(!options.sendsSecretsToUnauthenticatedDevices)
    }

    @Test func trustingVirtualDevicesAddsTheProcessRootOnceAndKeepsGooglesRoots() throws {
        let root = try #require(VirtualDeviceAuthority.shared?.root)
        let policy = DeviceAuthenticationPolicy.required.trustingVirtualDevices().trustingVirtualDevices()
        #expect(policy.mode == .required)
        #expect(policy.additionalTrustAnchors == [root])
        #expect(policy.trustAnchors == CastTrustAnchors.deviceRoots + [root])
    }

    /// A device answering challenges with `AuthError` (as `"auth": "error"`) is refused with a
    /// typed error before any LAUNCH, with the default mode and its root trusted.
    @Test func aDeviceThatDoesNotAuthenticateIsRefusedByDefault() async throws {
        let rig = try await EndToEndRig.start(configure: { $0.deviceAuthentication = .unavailable })
        let context = CastContext(options: rig.options())
        context.setLaunchCredentials(Self.credentials)
        do {
            _ = try await context.sessionManager.startSession(with: rig.target)
            Issue.record("a session started on a device that did not authenticate")
        } catch {
            #expect(error.code == .deviceAuthentication)
            #expect(error.code.rawValue == 3)
            let cause = try #require(error.underlying as? DeviceAuthError, "\(error)")
            #expect(cause.code == .authenticationErrorReceived)
        }
        #expect(rig.log.inbound(type: "LAUNCH").isEmpty)
        #expect(rig.log.inbound(type: "CONNECT").isEmpty, "nothing but the challenge was sent")
        await rig.device.stop()
    }

    /// A scripted peer that presents no TLS certificate and cannot answer a challenge (the
    /// in-memory fake device) is refused by the default options with nothing sent: no
    /// CONNECT, no LAUNCH.
    @Test func aPeerWithoutCredentialsIsRefusedByTheDefaults() async throws {
        let harness = Harness()
        let context = harness.context(
            harness.options {
                $0.deviceAuthentication = CastOptions(receiverApplicationID: "CC1AD845").deviceAuthentication
                $0.sendsSecretsToUnauthenticatedDevices = false
            }
        )
        context.setLaunchCredentials(Self.credentials)
        do {
            _ = try await context.sessionManager.startSession(with: harness.deviceInfo)
            Issue.record("a session started on a peer that did not authenticate")
        } catch {
            #expect(error.code == .deviceAuthentication, "\(error)")
            #expect(error.reason.contains("presented no TLS certificate"))
        }
        #expect(harness.device.received.isEmpty, "\(harness.device.received)")
    }

    /// With its root trusted, the virtual device authenticates and gets what the app sends.
    @Test func anAuthenticatedDeviceGetsTheSecrets() async throws {
        let rig = try await EndToEndRig.start()
        let context = CastContext(options: rig.options())
        context.setLaunchCredentials(Self.credentials)
        let session = try await context.sessionManager.startSession(with: rig.target)
        #expect(session.isDeviceAuthenticated)
        #expect(session.deviceAuthenticationResult?.deviceCommonName != nil)
        try await session.remoteMediaClient.load(LoadRequestData(media: Self.media, customData: .string("token")))
            .result
        let launch = try #require(try Self.inbound(rig, "LAUNCH").first)
        #expect(launch["appParams"]?["launchCheckerParams"]?["credentialsData"]?["credentials"] != nil)
        #expect(try Self.inbound(rig, "LOAD").first?["customData"]?.stringValue == "token")
        await context.sessionManager.endSession(stopCasting: true)
        await rig.device.stop()
    }

    /// Authentication off, no opt-in: the launch credentials make the start fail before the
    /// LAUNCH; without them the session starts but media requests with secrets fail unsent.
    @Test func secretsAreNotSentToAnOffDeviceWithoutTheOptIn() async throws {
        let rig = try await EndToEndRig.start()
        let context = CastContext(options: rig.options { $0.deviceAuthentication = .off })
        context.setLaunchCredentials(Self.credentials)
        do {
            _ = try await context.sessionManager.startSession(with: rig.target)
            Issue.record("the session started, so the launch credentials went out")
        } catch {
            #expect(error.code == .secretsWithheld)
            #expect(error.code.rawValue == 93)
            #expect(error.reason.contains("sendsSecretsToUnauthenticatedDevices"))
        }
        #expect(rig.log.inbound(type: "LAUNCH").isEmpty)

        context.setLaunchCredentials(nil)
        let session = try await context.sessionManager.startSession(with: rig.target)
        #expect(!session.isDeviceAuthenticated)
        #expect(session.deviceAuthenticationResult?.unauthenticatedReason == "device authentication is off")
        let launch = try #require(try Self.inbound(rig, "LAUNCH").first)
        #expect(launch["appParams"] == nil)

        let client = session.remoteMediaClient
        let refused: [(String, CastRequest)] = [
            ("customData", client.load(LoadRequestData(media: Self.media, customData: .object(["token": "t"])))),
            ("credentials", client.load(LoadRequestData(media: Self.media, credentials: "c", credentialsType: "ios"))),
            ("atvCredentials", client.load(LoadRequestData(media: Self.media, atvCredentials: "a"))),
        ]
        for (member, request) in refused {
            do {
                try await request.result
                Issue.record("a LOAD with \(member) was sent")
            } catch {
                #expect(error.code == .secretsWithheld, "\(member): \(error)")
                #expect(error.reason.contains(member))
            }
        }
        #expect(rig.log.inbound(type: "LOAD").isEmpty, "no LOAD with secrets reached the device")

        try await client.load(LoadRequestData(media: Self.media, autoplay: true)).result
        let loads = try Self.inbound(rig, "LOAD")
        #expect(loads.count == 1)
        #expect(loads.first?["customData"] == nil)
        do {
            try await client.pause(customData: .string("p")).result
            Issue.record("a PAUSE with customData was sent")
        } catch {
            #expect(error.code == .secretsWithheld)
        }
        #expect(rig.log.inbound(type: "PAUSE").isEmpty)
        try await client.pause().result
        #expect(rig.log.inbound(type: "PAUSE").count == 1)
        await context.sessionManager.endSession(stopCasting: true)
        await rig.device.stop()
    }

    /// Under `.ifSupported` a device answering `AuthError` is accepted unauthenticated, and
    /// joining its running app with launch credentials fails before the joining LAUNCH.
    @Test func joinCredentialsAreWithheldFromAnUnauthenticatedDevice() async throws {
        let rig = try await EndToEndRig.start(configure: { $0.deviceAuthentication = .unavailable })
        let policy = DeviceAuthenticationPolicy(mode: .ifSupported).trustingVirtualDevices()
        let owner = CastContext(options: rig.options { $0.deviceAuthentication = policy })
        let launched = try await owner.sessionManager.startSession(with: rig.target)
        #expect(!launched.isDeviceAuthenticated)
        #expect(launched.deviceAuthenticationResult?.unauthenticatedReason?.contains("AuthError") == true)
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)

        let joining = CastContext(options: rig.options { $0.deviceAuthentication = policy })
        joining.setLaunchCredentials(Self.credentials)
        do {
            _ = try await joining.sessionManager.startSession(with: rig.target)
            Issue.record("joined with the credentials sent")
        } catch {
            #expect(error.code == .secretsWithheld, "\(error)")
        }
        #expect(rig.log.inbound(type: "LAUNCH").count == 1, "no joining LAUNCH")
        #expect(rig.device.engineSnapshot?.runningApplicationCredentials == nil)
        await owner.sessionManager.endSession(stopCasting: true)
        await rig.device.stop()
    }

    /// The explicit opt-in sends everything to the unauthenticated device.
    @Test func theOptInSendsSecretsToAnUnauthenticatedDevice() async throws {
        let rig = try await EndToEndRig.start()
        let context = CastContext(
            options: rig.options {
                $0.deviceAuthentication = .off
                $0.sendsSecretsToUnauthenticatedDevices = true
            }
        )
        context.setLaunchCredentials(Self.credentials)
        let session = try await context.sessionManager.startSession(with: rig.target)
        #expect(!session.isDeviceAuthenticated)
        try await session.remoteMediaClient.load(LoadRequestData(media: Self.media, customData: .string("token")))
            .result
        #expect(rig.device.engineSnapshot?.runningApplicationCredentials == Self.credentials)
        #expect(try Self.inbound(rig, "LOAD").first?["customData"]?.stringValue == "token")
        await context.sessionManager.endSession(stopCasting: true)
        await rig.device.stop()
    }

    /// One warning per device and context, however often it connects; none for a device that
    /// authenticated.
    @Test func acceptingAnUnauthenticatedDeviceWarnsOncePerDevice() async throws {
        let first = try await EndToEndRig.start()
        let second = try await EndToEndRig.start()
        let sink = CollectingSink()
        let logger = CastLogger()
        logger.sink = sink
        func warnings() -> [CastLogEntry] {
            sink.entries.withLock { $0 }.filter {
                $0.level == .warning && $0.message == "device accepted without authentication"
            }
        }
        let context = CastContext(
            options: first.options {
                $0.deviceAuthentication = DeviceAuthenticationPolicy(mode: .off)
                $0.logger = logger
            }
        )
        // A device is known by its unique id (as discovery reports it), whatever connects to it.
        let firstDevice = first.target
        let secondDevice = second.target
        for _ in 0..<2 {
            _ = try await context.sessionManager.startSession(with: firstDevice)
            await context.sessionManager.endSession(stopCasting: false)
        }
        #expect(warnings().count == 1)
        #expect(warnings().first?.metadata["cast.policy"] == "off")
        #expect(warnings().first?.metadata["cast.address"] == "127.0.0.1:\(first.ports.cast)")

        _ = try await context.sessionManager.startSession(with: secondDevice)
        await context.sessionManager.endSession(stopCasting: false)
        #expect(warnings().count == 2)
        #expect(warnings().last?.metadata["cast.device-id"] == secondDevice.idText)

        // `.ifSupported` with a device that authenticates: no warning.
        let quiet = CollectingSink()
        let authenticating = CastContext(
            options: second.options {
                $0.deviceAuthentication = DeviceAuthenticationPolicy(mode: .ifSupported).trustingVirtualDevices()
                $0.logger = CastLogger()
                $0.logger.sink = quiet
            }
        )
        let session = try await authenticating.sessionManager.startSession(with: secondDevice)
        #expect(session.isDeviceAuthenticated)
        #expect(!quiet.entries.withLock { $0 }.contains { $0.message == "device accepted without authentication" })
        await authenticating.sessionManager.endSession(stopCasting: true)
        await first.device.stop()
        await second.device.stop()
    }
}
