import CastCore
import CastEmulator
import Testing

@Suite struct VirtualDeviceEngineTests {
    @Test func startsWithoutDeadline() {
        let engine = VirtualDeviceEngine(
            configuration: VirtualDeviceConfiguration(identity: DeviceIdentity(friendlyName: "TV", deviceID: "0")),
            at: .epoch
        )
        #expect(engine.nextDeadline == nil)
    }
}
