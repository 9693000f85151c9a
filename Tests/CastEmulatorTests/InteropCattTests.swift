import CastEmulator
import Testing

/// catt 0.13 against an in-process virtual device, by address (`catt -d <address>`).
@Suite(.serialized) struct InteropCattTests {
    @Test func castControlAndStop() async throws {
        let device = try await Interop.startDevice(name: "Interop Bedroom")
        let report = try await Interop.runScript("catt_session.py", arguments: [device.options.address])
        report.expectSteps([
            "cast", "status playing", "pause", "status paused", "play", "seek", "position after seek", "volume",
            "status volume", "stop", "status after stop",
        ])
        await device.stop()
    }
}
