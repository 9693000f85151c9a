import CastCore
import CastEmulator
import CastSender
import Foundation
import Testing

@testable import castvideos

/// The built-in device across runs of the app, and the app's log filter.
@Suite(.serialized)
struct BuiltInDeviceAndLoggingTests {
    /// Addresses no other suite uses: the app's own ones (127.0.0.77–79) fall in the range
    /// other suites pick devices from, and one may take the port between the two runs.
    static let addresses = ["127.1.0.77", "127.1.0.78"]

    @Test func theBuiltInDeviceKeepsItsAddressPortAndRunningAppAcrossRuns() async throws {
        let directory = try TmuxDriver.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await BuiltInVirtualDevice.start(
            logPath: nil,
            stateDirectory: directory,
            addresses: Self.addresses
        )
        // A receiver app with media, as a session leaves it when the app quits.
        let snapshot = VirtualDeviceSnapshot(
            appID: DiscoveryCriteria.defaultMediaReceiverApplicationID,
            sessionID: "S-kept",
            transportID: "T-kept"
        )
        first.device.restore(snapshot)
        await first.saveState()
        let saved = try JSONDecoder().decode(
            BuiltInVirtualDevice.SavedState.self,
            from: Data(contentsOf: directory.appendingPathComponent(BuiltInVirtualDevice.stateFileName))
        )
        #expect(saved.address == first.address && saved.castPort == first.castPort)
        #expect(saved.snapshot?.sessionID == "S-kept")
        await first.stop()

        let second = try await BuiltInVirtualDevice.start(
            logPath: nil,
            stateDirectory: directory,
            addresses: Self.addresses
        )
        #expect(second.address == first.address)
        #expect(second.castPort == first.castPort, "the same port, so a saved session finds it")
        #expect(second.device.engineSnapshot?.runningApplication?.sessionID == "S-kept")
        let consumed = try JSONDecoder().decode(
            BuiltInVirtualDevice.SavedState.self,
            from: Data(contentsOf: directory.appendingPathComponent(BuiltInVirtualDevice.stateFileName))
        )
        #expect(consumed.snapshot == nil, "the app is restored once")
        await second.stop()
    }

    @Test func aDamagedStateFileIsIgnored() async throws {
        let directory = try TmuxDriver.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("{not json".utf8).write(to: directory.appendingPathComponent(BuiltInVirtualDevice.stateFileName))
        let device = try await BuiltInVirtualDevice.start(
            logPath: nil,
            stateDirectory: directory,
            addresses: Self.addresses
        )
        #expect(device.castPort > 0)
        #expect(device.device.engineSnapshot?.runningApplication?.sessionID != "S-kept")
        await device.stop()
    }

    @Test func theLogFilterShowsTheCodelabFlowAtTheChosenLevel() {
        var settings = AppSettings()
        let filter = settings.logFilter
        #expect(filter.minimumLevel == .warning)
        #expect(filter.allows(.debug, from: .session, function: "f()", message: "launching app"))
        #expect(filter.allows(.debug, from: .media, function: "f()", message: "media command sent"))
        #expect(!filter.allows(.verbose, from: .connection, function: "f()", message: "send"), "no raw traffic")
        #expect(!filter.allows(.info, from: .connection, function: "f()", message: "request timed out"))
        settings.set(.logLevel, "verbose")
        #expect(settings.logFilter.allows(.verbose, from: .connection, function: "f()", message: "send"))
        #expect(settings.logFilter.allows(.verbose, from: .media, function: "f()", message: "media status"))
        settings.set(.logLevel, "none")
        #expect(!settings.logFilter.allows(.error, from: .session, function: "f()", message: "x"))
    }
}
