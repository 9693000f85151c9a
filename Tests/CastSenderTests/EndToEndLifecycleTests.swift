import CastCore
import CastSenderTestSupport
import CastSync
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender

/// The app-lifecycle calls on `CastContext` (background, foreground, quit) with
/// `suspendSessionsWhenBackgrounded` and `stopReceiverApplicationWhenEndingSession`, against
/// the virtual device's engine in memory (``InMemoryRig``).
@Suite struct EndToEndLifecycleTests {
    static func storeURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("cast-lifecycle-\(UUID().uuidString).json")
    }

    @Test func backgroundSuspendsAndClosesTheConnectionForegroundResumesTheSameSession() async throws {
        let rig = InMemoryRig()
        let context = rig.context(rig.options())
        let recorder = SessionEventLog()
        context.sessionManager.add(recorder)
        let session = try await rig.run { try await context.sessionManager.startSession(with: rig.target) }
        let sessionID = session.sessionID
        #expect(rig.device.connectionCount == 1)

        try await rig.run { await context.applicationDidEnterBackground() }
        #expect(session.isSuspended)
        #expect(rig.device.connectionCount == 0, "the device saw the connection close")
        try await rig.run { await recorder.wait(for: "didSuspend") }
        #expect(recorder.names.last == "didSuspend")
        #expect(rig.device.engineSnapshot?.runningApplication?.sessionID == sessionID, "the receiver app keeps running")

        context.applicationWillEnterForeground()
        try await rig.run { await recorder.wait(for: "didResume") }
        #expect(session.connectionState == .connected)
        #expect(session.sessionID == sessionID)
        #expect(recorder.names.suffix(2) == ["willResume", "didResume"])
        #expect(rig.log.inbound(type: "LAUNCH").count == 1, "resumed, not relaunched")

        // A second foreground call has nothing to resume.
        context.applicationWillEnterForeground()
        #expect(session.connectionState == .connected)
    }

    @Test func withoutSuspendSessionsWhenBackgroundedTheSessionStaysConnected() async throws {
        let rig = InMemoryRig()
        let context = rig.context(rig.options { $0.suspendSessionsWhenBackgrounded = false })
        let session = try await rig.run { try await context.sessionManager.startSession(with: rig.target) }
        try await rig.run { await context.applicationDidEnterBackground() }
        #expect(session.connectionState == .connected)
        #expect(rig.device.connectionCount == 1)
        try await rig.run { try await session.remoteMediaClient.requestStatus().result }
    }

    @Test func quittingLeavesTheAppRunningAndTheNextLaunchResumesIt() async throws {
        let store = Self.storeURL()
        defer { try? FileManager.default.removeItem(at: store) }
        let rig = InMemoryRig()
        let first = rig.context(rig.options { $0.sessionStoreURL = store })
        let session = try await rig.run { try await first.sessionManager.startSession(with: rig.target) }
        let sessionID = session.sessionID
        try await rig.run { await first.applicationWillTerminate() }
        #expect(rig.device.connectionCount == 0)
        #expect(rig.device.engineSnapshot?.runningApplication?.sessionID == sessionID)
        #expect(first.sessionManager.hasSavedSession)

        // The next process: a new context on the same store resumes by itself.
        let recorder = SessionEventLog()
        let second = rig.context(
            rig.options {
                $0.sessionStoreURL = store
                $0.resumesSavedSession = false
            }
        )
        second.sessionManager.add(recorder)
        let resumed = try await rig.run { try await second.sessionManager.resumeSavedSession() }
        #expect(resumed.sessionID == sessionID)
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
        try await rig.run { await recorder.wait(for: "didResume") }
        #expect(recorder.names == ["willResume", "didResume"])
    }

    @Test func quittingWithStopReceiverApplicationStopsTheAppAndForgetsTheSession() async throws {
        let store = Self.storeURL()
        defer { try? FileManager.default.removeItem(at: store) }
        let rig = InMemoryRig()
        let context = rig.context(
            rig.options {
                $0.sessionStoreURL = store
                $0.stopReceiverApplicationWhenEndingSession = true
            }
        )
        let session = try await rig.run { try await context.sessionManager.startSession(with: rig.target) }
        let sessionID = session.sessionID
        try await rig.run { await context.applicationWillTerminate() }
        #expect(rig.log.inbound(type: "STOP").count == 1)
        #expect(rig.device.engineSnapshot?.runningApplication?.sessionID != sessionID)
        #expect(!context.sessionManager.hasSavedSession)
        #expect(context.sessionManager.currentSession == nil)
    }

    @Test func quittingWhileSuspendedResumesNothing() async throws {
        let store = Self.storeURL()
        defer { try? FileManager.default.removeItem(at: store) }
        let rig = InMemoryRig()
        let context = rig.context(
            rig.options {
                $0.sessionStoreURL = store
                $0.stopReceiverApplicationWhenEndingSession = true
            }
        )
        let session = try await rig.run { try await context.sessionManager.startSession(with: rig.target) }
        let sessionID = session.sessionID
        try await rig.run { await context.applicationDidEnterBackground() }
        #expect(rig.device.connectionCount == 0)
        try await rig.run { await context.applicationWillTerminate() }
        #expect(rig.device.connectionCount == 0, "no reconnection to stop the app")
        #expect(rig.log.inbound(type: "STOP").isEmpty)
        #expect(rig.device.engineSnapshot?.runningApplication?.sessionID == sessionID)
        #expect(!context.sessionManager.hasSavedSession)
    }

    @Test func resumingFindsTheDeviceByIdentityAtItsNewAddress() async throws {
        let store = Self.storeURL()
        defer { try? FileManager.default.removeItem(at: store) }
        let rig = InMemoryRig()
        let first = rig.context(rig.options { $0.sessionStoreURL = store })
        let device = try await rig.run { try await first.discoveryManager.addDevice(host: "127.0.0.1", port: rig.port) }
        let session = try await rig.run { try await first.sessionManager.startSession(with: device) }
        try await rig.run { await first.applicationWillTerminate() }

        // The saved address no longer answers (the device moved); running discovery knows the
        // device under the saved id at its new address.
        let saved = try JSONDecoder().decode(PersistedSession.self, from: Data(contentsOf: store))
        var moved = saved
        moved.port = 9
        try JSONEncoder().encode(moved).write(to: store)
        var options = rig.options { $0.sessionStoreURL = store }
        options.resumesSavedSession = false
        let second = rig.context(options)
        try second.discoveryManager.startDiscovery()
        second.discoveryManager.browsed(
            .didInsert(
                CastDevice(
                    id: try #require(CastDevice.parseID(saved.deviceID)),
                    friendlyName: "Moved",
                    addresses: [IPAddress("127.0.0.1")!],
                    port: UInt16(rig.port)
                )
            )
        )
        let resumed = try await rig.run { try await second.sessionManager.resumeSavedSession() }
        #expect(resumed.sessionID == session.sessionID)
        #expect(resumed.port == rig.port)
        #expect(rig.connects.withLock { $0 } >= 3, "the saved address was tried and refused first")
    }
}
