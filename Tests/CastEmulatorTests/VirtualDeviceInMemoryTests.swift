import CastCore
import CastNetEmbedded
import CastTestSupport
import Testing

@testable import CastEmulator

/// The device's hosting of an engine, with senders in memory (``MemorySender``): replies held
/// by the reply delay until the clock moves, engine deadlines as timers, an engine's close,
/// dropped and crashed connections, reboot and restart. What needs the listener and TLS stays
/// in `ServerVirtualDeviceTests`.
@Suite struct VirtualDeviceInMemoryTests {
    static let ping = #"{"type":"PING"}"#

    @Test func engineCloseSendsEarlierFramesFirst() async throws {
        let loop = EmbeddedLoop()
        let sender = MemorySender(to: MemorySender.scriptedDevice(on: loop), loop: loop)
        try sender.send(namespace: ScriptedEngine.echo, #"{"type":"CLOSE_ME"}"#)
        #expect(try await sender.receive()?.payloadUTF8 == #"{"type":"BYE"}"#)
        #expect(try await sender.receive() == nil)
    }

    @Test func replyDelayHoldsFramesUntilTheClockMoves() async throws {
        let loop = EmbeddedLoop()
        let device = MemorySender.scriptedDevice(on: loop)
        device.replyDelay = .milliseconds(300)
        let sender = MemorySender(to: device, loop: loop)
        try sender.send(namespace: .heartbeat, Self.ping)
        sender.advance(by: .milliseconds(299))
        #expect(sender.pending().isEmpty, "the reply left before its delay")
        sender.advance(by: .milliseconds(1))
        #expect(sender.pending().map(\.payloadUTF8) == [#"{"type":"PONG"}"#])
        // Sent now (t = 300 ms), the echo is due at 600 ms.
        try sender.send(namespace: ScriptedEngine.echo, #"{"type":"SECOND"}"#)
        sender.advance(by: .milliseconds(299))
        #expect(sender.pending().isEmpty)
        sender.advance(by: .milliseconds(1))
        #expect(sender.pending().map(\.payloadUTF8) == [#"{"type":"SECOND"}"#])
    }

    @Test func engineDeadlineBecomesATimer() async throws {
        let loop = EmbeddedLoop()
        let sender = MemorySender(to: MemorySender.scriptedDevice(on: loop), loop: loop)
        try sender.send(namespace: ScriptedEngine.echo, #"{"type":"TICK_IN","ms":5000}"#)
        sender.advance(by: .milliseconds(4999))
        #expect(sender.pending().isEmpty, "the engine ticked before its deadline")
        sender.advance(by: .milliseconds(1))
        #expect(sender.pending().map(\.payloadUTF8) == [#"{"type":"TICKED"}"#])
    }

    @Test func dropAllConnectionsClosesEverySender() async throws {
        let loop = EmbeddedLoop()
        let device = MemorySender.scriptedDevice(on: loop)
        let first = MemorySender(to: device, loop: loop)
        let second = MemorySender(to: device, loop: loop)
        for sender in [first, second] {
            try sender.send(namespace: .heartbeat, Self.ping)
            #expect(try await sender.receive()?.payloadUTF8 == #"{"type":"PONG"}"#)
        }
        device.dropAllConnections()
        #expect(try await first.readToEnd().isEmpty)
        #expect(try await second.readToEnd().isEmpty)
        let third = MemorySender(to: device, loop: loop)
        try third.send(namespace: .heartbeat, Self.ping)
        #expect(try await third.receive()?.payloadUTF8 == #"{"type":"PONG"}"#)
    }

    @Test func crashMidFrameSendsHalfAFrameThenCloses() async throws {
        let loop = EmbeddedLoop()
        let device = MemorySender.scriptedDevice(on: loop)
        let sender = MemorySender(to: device, loop: loop)
        try sender.send(namespace: .heartbeat, Self.ping)
        _ = try await sender.receive()
        device.crashConnectionsMidFrame()
        let bytes = try await sender.readToEnd()
        #expect(bytes.count >= 4, "not even a length prefix arrived")
        let declared = bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        #expect(declared > bytes.count - 4, "the frame arrived whole (\(bytes.count) bytes, declared \(declared))")
    }

    @Test func rebootStartsAFreshEngineAndRestartAppKeepsConnections() async throws {
        let loop = EmbeddedLoop()
        let device = MemorySender.scriptedDevice(on: loop)
        let sender = MemorySender(to: device, loop: loop)
        device.restartApplication()
        try sender.send(namespace: ScriptedEngine.echo, #"{"type":"GENERATION"}"#)
        #expect(try await sender.receive()?.payloadUTF8 == #"{"type":"GENERATION","value":1}"#)
        device.faults.ignoresPings = true
        device.reboot()
        #expect(try await sender.readToEnd().isEmpty)
        let again = MemorySender(to: device, loop: loop)
        try again.send(namespace: ScriptedEngine.echo, #"{"type":"GENERATION"}"#)
        #expect(try await again.receive()?.payloadUTF8 == #"{"type":"GENERATION","value":0}"#)
        #expect(device.faults.ignoresPings, "a reboot must keep the lasting faults")
    }
}
