import Testing

@testable import CastSender

/// Volumes of speaker-group members are checked where they enter the SDK.
@Suite struct MultizoneValidationTests {
    @Test(
        arguments: [
            (1.5, 1.0), (-0.2, 0.0), (0.30000001192092896, 0.30000001192092896), (Double.infinity, nil),
            (Double.nan, nil),
        ] as [(Double, Double?)]
    )
    func levelsAreClampedOrDropped(level: Double, expected: Double?) {
        let device = MultizoneDevice(deviceID: "d", volume: Volume(level: level, muted: false)).validated()
        #expect(device.volumeLevel == expected)
        #expect(device.isMuted == false)
    }

    @Test func negativeCapabilitiesAndEmptyIDsAreDropped() {
        let status = MultizoneStatus(devices: [
            MultizoneDevice(deviceID: "", name: "ghost"), MultizoneDevice(deviceID: "a", capabilities: -4),
        ])
        .validated()
        #expect(status.devices.map(\.deviceID) == ["a"])
        #expect(status.devices[0].capabilities == nil)
    }
}
