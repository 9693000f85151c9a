import CastEmulator
import Testing

extension EmulatorProcessSuites {
    /// PyChromecast 14 against an in-process virtual device, by address (no mDNS).
    @Suite(.serialized) struct InteropPyChromecastTests {
        @Test func fullSessionWithASecondSender() async throws {
            let device = try await Interop.startDevice(name: "Interop Living Room")
            let identity = device.configuration.identity
            let report = try await Interop.runScript(
                "pychromecast_session.py",
                arguments: [device.options.address, try #require(identity.udn), identity.friendlyName]
            )
            report.expectSteps([
                "connect", "identity", "launch", "media namespace", "playing", "loaded media", "start time",
                "subtitle track", "subtitle active", "pause", "play", "seek", "playback rate", "subtitle off",
                "subtitle on", "volume", "mute", "unmute", "enqueue", "queue next", "queue previous",
                "playing again", "second joins app", "second sees media", "first told of second's pause", "stop",
                "quit app",
            ])
            await device.stop()
        }
    }
}

extension EmulatorProcessSuites {
    /// PyChromecast's MultizoneController against a virtual speaker in no group.
    @Suite(.serialized) struct InteropPyChromecastMultizoneTests {
        @Test func multizoneControllerSeesTheSpeakerAndSetsItsVolume() async throws {
            let device = try await Interop.startDevice(name: "Interop Kitchen speaker", profile: .speaker)
            let identity = device.configuration.identity
            let report = try await Interop.runScript(
                "pychromecast_multizone.py",
                arguments: [device.options.address, try #require(identity.udn), identity.friendlyName]
            )
            report.expectSteps([
                "connect", "multizone status", "lists itself", "member name", "member keys", "casting groups",
                "device updated", "receiver volume follows", "still one member",
            ])
            await device.stop()
        }
    }
}
