import CastCore
import CastNet
import CastTime
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender

/// The app-lifecycle calls on `CastContext` (background, foreground, quit) with
/// `suspendSessionsWhenBackgrounded` and `stopReceiverApplicationWhenEndingSession`, over TLS
/// against the virtual device.
@Suite struct EndToEndLifecycleTests {
    static func storeURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("cast-lifecycle-\(UUID().uuidString).json")
    }

    @Test func backgroundSuspendsAndClosesTheConnectionForegroundResumesTheSameSession() async throws {
        let rig = try await EndToEndRig.start()
        let context = CastContext(options: rig.options())
        let recorder = EventRecorder()
        context.sessionManager.add(recorder)
        let session = try await context.sessionManager.startSession(with: rig.target)
        let sessionID = session.sessionID
        #expect(rig.device.connectionCount == 1)

        await context.applicationDidEnterBackground()
        #expect(session.isSuspended)
        #expect(await rig.eventually { rig.device.connectionCount == 0 }, "the device saw the connection close")
        #expect(await rig.eventually { recorder.names.last == "didSuspend" })
        #expect(rig.device.engineSnapshot?.runningApplication?.sessionId == sessionID, "the receiver app keeps running")

        context.applicationWillEnterForeground()
        #expect(await rig.eventually { session.connectionState == .connected })
        #expect(session.sessionID == sessionID)
        #expect(await rig.eventually { recorder.names.suffix(2) == ["willResume", "didResume"] })
        #expect(rig.log.inbound(type: "LAUNCH").count == 1, "resumed, not relaunched")

        // A second foreground call has nothing to resume.
        context.applicationWillEnterForeground()
        #expect(session.connectionState == .connected)
    }

    @Test func withoutSuspendSessionsWhenBackgroundedTheSessionStaysConnected() async throws {
        let rig = try await EndToEndRig.start()
        let context = CastContext(options: rig.options { $0.suspendSessionsWhenBackgrounded = false })
        let session = try await context.sessionManager.startSession(with: rig.target)
        await context.applicationDidEnterBackground()
        #expect(session.connectionState == .connected)
        #expect(rig.device.connectionCount == 1)
        try await session.remoteMediaClient.requestStatus().result
    }

    @Test func quittingLeavesTheAppRunningAndTheNextLaunchResumesIt() async throws {
        let store = Self.storeURL()
        defer { try? FileManager.default.removeItem(at: store) }
        let rig = try await EndToEndRig.start()
        let first = CastContext(options: rig.options { $0.sessionStoreURL = store })
        let session = try await first.sessionManager.startSession(with: rig.target)
        let sessionID = session.sessionID
        await first.applicationWillTerminate()
        #expect(await rig.eventually { rig.device.connectionCount == 0 })
        #expect(rig.device.engineSnapshot?.runningApplication?.sessionId == sessionID)
        #expect(first.sessionManager.hasSavedSession)

        // The next process: a new context on the same store resumes by itself.
        let recorder = EventRecorder()
        let second = CastContext(
            options: rig.options {
                $0.sessionStoreURL = store
                $0.resumesSavedSession = false
            }
        )
        second.sessionManager.add(recorder)
        let resumed = try await second.sessionManager.resumeSavedSession()
        #expect(resumed.sessionID == sessionID)
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
        #expect(await rig.eventually { recorder.names == ["willResume", "didResume"] })
    }

    @Test func quittingWithStopReceiverApplicationStopsTheAppAndForgetsTheSession() async throws {
        let store = Self.storeURL()
        defer { try? FileManager.default.removeItem(at: store) }
        let rig = try await EndToEndRig.start()
        let context = CastContext(
            options: rig.options {
                $0.sessionStoreURL = store
                $0.stopReceiverApplicationWhenEndingSession = true
            }
        )
        let session = try await context.sessionManager.startSession(with: rig.target)
        let sessionID = session.sessionID
        await context.applicationWillTerminate()
        #expect(rig.log.inbound(type: "STOP").count == 1)
        #expect(rig.device.engineSnapshot?.runningApplication?.sessionId != sessionID)
        #expect(!context.sessionManager.hasSavedSession)
        #expect(context.sessionManager.currentSession == nil)
    }

    @Test func quittingWhileSuspendedResumesNothing() async throws {
        let store = Self.storeURL()
        defer { try? FileManager.default.removeItem(at: store) }
        let rig = try await EndToEndRig.start()
        let context = CastContext(
            options: rig.options {
                $0.sessionStoreURL = store
                $0.stopReceiverApplicationWhenEndingSession = true
            }
        )
        let session = try await context.sessionManager.startSession(with: rig.target)
        let sessionID = session.sessionID
        await context.applicationDidEnterBackground()
        #expect(await rig.eventually { rig.device.connectionCount == 0 })
        await context.applicationWillTerminate()
        #expect(rig.device.connectionCount == 0, "no reconnection to stop the app")
        #expect(rig.log.inbound(type: "STOP").isEmpty)
        #expect(rig.device.engineSnapshot?.runningApplication?.sessionId == sessionID)
        #expect(!context.sessionManager.hasSavedSession)
    }

    @Test func resumingFindsTheDeviceByIdentityAtItsNewAddress() async throws {
        let store = Self.storeURL()
        defer { try? FileManager.default.removeItem(at: store) }
        let rig = try await EndToEndRig.start()
        let first = CastContext(options: rig.options { $0.sessionStoreURL = store })
        let device = try await first.discoveryManager.addDevice(host: "127.0.0.1", port: rig.ports.cast)
        let session = try await first.sessionManager.startSession(with: device)
        await first.applicationWillTerminate()

        // The saved address no longer answers (the device moved); running discovery knows the
        // device under the saved id at its new address.
        let saved = try JSONDecoder().decode(PersistedSession.self, from: Data(contentsOf: store))
        var moved = saved
        moved.port = 9
        try JSONEncoder().encode(moved).write(to: store)
        var options = rig.options { $0.sessionStoreURL = store }
        options.resumesSavedSession = false
        let clock = SystemCastClock()
        let second = CastContext(
            options: options,
            connector: TLSTransportConnector(configuration: CastConnectionConfiguration(), clock: clock),
            clock: clock,
            browser: nil
        )
        try second.discoveryManager.startDiscovery()
        second.discoveryManager.browsed(
            .didInsert(
                CastDevice(
                    id: try #require(CastDevice.parseID(saved.deviceID)),
                    friendlyName: "Moved",
                    addresses: [IPAddress("127.0.0.1")!],
                    port: UInt16(rig.ports.cast)
                )
            )
        )
        let resumed = try await second.sessionManager.resumeSavedSession()
        #expect(resumed.sessionID == session.sessionID)
        #expect(resumed.port == rig.ports.cast)
    }
}
