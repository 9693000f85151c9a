import CastCore
import CastSenderTestSupport
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender

/// Cast Connect launch credentials reach a receiver app that is already running when a
/// sender joins it, against the virtual device's engine in memory (``InMemoryRig``).
@Suite struct EndToEndJoinCredentialsTests {
    static let credentials = CredentialsData(credentials: #"{"userId":"id123"}"#, credentialsType: "ios")

    @Test func joiningARunningAppSendsTheLaunchCredentialsAndTheDeviceRecordsThem() async throws {
        let rig = InMemoryRig()
        let first = rig.context(rig.options())
        let launched = try await rig.run { try await first.sessionManager.startSession(with: rig.target) }
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
        #expect(rig.device.engineSnapshot?.runningApplicationCredentials == nil)

        let second = rig.context(rig.options())
        second.setLaunchCredentials(Self.credentials)
        let joined = try await rig.run { try await second.sessionManager.startSession(with: rig.target) }
        #expect(joined.sessionID == launched.sessionID, "a join: the same receiver session, no relaunch")
        #expect(launched.connectionState == .connected, "the first sender stays connected")

        let launches = rig.log.inbound(type: "LAUNCH")
        #expect(launches.count == 2)
        let join = try JSONValue(parsing: try #require(launches.last).payload)
        #expect(join["appId"]?.stringValue == DiscoveryCriteria.defaultMediaReceiverApplicationID)
        let data = join["appParams"]?["launchCheckerParams"]?["credentialsData"]
        #expect(data?["credentials"]?.stringValue == Self.credentials.credentials)
        #expect(data?["credentialsType"]?.stringValue == "ios")

        // The device keeps them for the running app and logs their arrival.
        #expect(rig.device.engineSnapshot?.runningApplicationCredentials == Self.credentials)
        #expect(
            rig.log.all.contains { $0.direction == .event && $0.payload.contains("launch credentials received") },
            "the frame log records the credentials"
        )
    }

    @Test func joiningWithoutCredentialsSendsNoLaunch() async throws {
        let rig = InMemoryRig()
        let first = rig.context(rig.options())
        let launched = try await rig.run { try await first.sessionManager.startSession(with: rig.target) }
        let second = rig.context(rig.options())
        let joined = try await rig.run { try await second.sessionManager.startSession(with: rig.target) }
        #expect(joined.sessionID == launched.sessionID)
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
    }

    @Test func credentialsSetDuringASessionAreSentAtTheNextJoinOnly() async throws {
        let rig = InMemoryRig()
        let owner = rig.context(rig.options())
        _ = try await rig.run { try await owner.sessionManager.startSession(with: rig.target) }
        let context = rig.context(rig.options())
        _ = try await rig.run { try await context.sessionManager.startSession(with: rig.target) }
        context.setLaunchCredentials(Self.credentials)
        #expect(rig.log.inbound(type: "LAUNCH").count == 1, "setting them while connected sends nothing")
        try await rig.run { await context.sessionManager.endSession() }
        _ = try await rig.run { try await context.sessionManager.startSession(with: rig.target) }
        #expect(rig.log.inbound(type: "LAUNCH").count == 2)
        #expect(rig.device.engineSnapshot?.runningApplicationCredentials == Self.credentials)
    }

    @Test func criteriaWithSeveralAppsJoinTheOneThatRuns() async throws {
        let rig = InMemoryRig()
        let owner = rig.context(rig.options())
        let launched = try await rig.run { try await owner.sessionManager.startSession(with: rig.target) }
        var options = rig.options()
        options.discoveryCriteria = DiscoveryCriteria(applicationIDs: [
            "4F8B3483", DiscoveryCriteria.defaultMediaReceiverApplicationID,
        ])
        let context = rig.context(options)
        let joined = try await rig.run { try await context.sessionManager.startSession(with: rig.target) }
        #expect(joined.sessionID == launched.sessionID, "the Default Media Receiver is in the criteria: joined")
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
    }
}
