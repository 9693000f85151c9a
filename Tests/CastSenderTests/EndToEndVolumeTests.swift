import CastCore
import CastSenderTestSupport
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender

/// Volume keys through `CastContext.volumeKeyPressed(_:)` (the
/// `physicalVolumeButtonsWillControlDeviceVolume` option) against the virtual device's engine,
/// in memory (``InMemoryRig``): a request reaches the device only when the loop runs, so
/// what is still in flight is exact.
@Suite struct EndToEndVolumeTests {
    static func rig(fixed: Bool = false) -> InMemoryRig {
        InMemoryRig { configuration in
            configuration.bufferingDelay = .zero
            configuration.volume = Volume(level: 0.5, muted: false)
            configuration.volumeStepInterval = 0.1
            if fixed { configuration.volumeControlType = .fixed }
        }
    }

    var deviceLevel: (InMemoryRig) -> Double? { { $0.device.engineSnapshot?.deviceVolume.level } }

    @Test func volumeKeysStepTheDeviceVolumeByItsStepIntervalAndMute() async throws {
        let rig = Self.rig()
        let context = rig.context(rig.options())
        let session = try await rig.run { try await context.sessionManager.startSession(with: rig.target) }
        #expect(session.deviceVolumeIncrement == 0.1)

        // Two quick presses add up: the second steps from the level the first asked for,
        // still in flight (the device has not seen it yet).
        let first = try #require(context.volumeKeyPressed(.up))
        #expect(session.pendingDeviceVolume == 0.6)
        #expect(session.currentDeviceVolume == 0.5)
        let second = try #require(context.volumeKeyPressed(.up))
        #expect(session.pendingDeviceVolume == 0.7)
        try await rig.run { try await first.result }
        try await rig.run { try await second.result }
        #expect(deviceLevel(rig) == 0.7)
        #expect(session.currentDeviceVolume == 0.7)
        #expect(session.pendingDeviceVolume == nil)

        try await rig.run { try await #require(context.volumeKeyPressed(.down)).result }
        #expect(deviceLevel(rig) == 0.6)
        try await rig.run { try await #require(context.volumeKeyPressed(.mute)).result }
        #expect(rig.device.engineSnapshot?.deviceVolume.muted == true)
        #expect(session.currentDeviceMuted)
        try await rig.run { try await #require(context.volumeKeyPressed(.mute)).result }
        #expect(rig.device.engineSnapshot?.deviceVolume.muted == false)
        let sets = rig.log.inbound(type: "SET_VOLUME")
        #expect(sets.count == 5)
        let levels = sets.prefix(2).map { (try? JSONValue(parsing: $0.payload))?["volume"]?["level"]?.doubleValue }
        #expect(levels == [0.6, 0.7], "the second press stepped from the first one's level")
        #expect(sets.allSatisfy { $0.namespace == CastNamespace.receiver.rawValue })
    }

    @Test func withTheOptionOffOrNoSessionTheKeysAreTheApps() async throws {
        let rig = Self.rig()
        let context = rig.context(rig.options { $0.physicalVolumeButtonsWillControlDeviceVolume = false })
        #expect(context.volumeKeyPressed(.up) == nil)
        _ = try await rig.run { try await context.sessionManager.startSession(with: rig.target) }
        #expect(context.volumeKeyPressed(.up) == nil)
        #expect(context.volumeKeyPressed(.mute) == nil)
        #expect(rig.log.inbound(type: "SET_VOLUME").isEmpty)
    }

    @Test func aFixedVolumeDeviceRefusesDeviceVolumeAndTheKeysChangeTheStreamVolume() async throws {
        let rig = Self.rig(fixed: true)
        let context = rig.context(rig.options())
        let session = try await rig.run { try await context.sessionManager.startSession(with: rig.target) }
        #expect(session.isFixedVolume)
        let refused = session.setDeviceVolume(0.2)
        #expect(refused.error?.code == .notAllowed)
        #expect(session.stepDeviceVolume(by: 1).error?.code == .notAllowed)
        #expect(context.volumeKeyPressed(.up) == nil, "no media: nothing else to change")

        try await rig.run {
            try await session.remoteMediaClient.load(LoadRequestData(media: EndToEndCodelabTests.media)).result
        }
        let down = try #require(context.volumeKeyPressed(.down))
        try await rig.run { try await down.result }
        #expect(rig.deviceMedia?.volume?.level == 0.95)
        try await rig.run { try await #require(context.volumeKeyPressed(.mute)).result }
        #expect(rig.deviceMedia?.volume?.muted == true)
        #expect(rig.log.inbound(type: "SET_VOLUME").allSatisfy { $0.namespace == CastNamespace.media.rawValue })
        #expect(deviceLevel(rig) == 0.5, "the device volume never moved")
    }

    @Test func steppingSnapsToTheStepAndStaysInRange() {
        #expect(CastSession.stepped(0.53, by: 1, increment: 0.05) == 0.6)
        #expect(CastSession.stepped(0.98, by: 1, increment: 0.05) == 1)
        #expect(CastSession.stepped(0.02, by: -1, increment: 0.05) == 0)
        #expect(CastSession.stepped(0.5, by: 3, increment: 0.1) == 0.8)
        #expect(CastSession.stepped(.nan, by: 1, increment: .infinity) == 0.05)
        #expect(CastSession.stepped(0.5, by: Int.max / 2, increment: 0.05) == 1)
    }
}
