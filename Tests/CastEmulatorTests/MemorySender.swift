import CastCore
import CastNetEmbedded
import CastSync
import CastTestSupport
import CastTime
import Testing

@testable import CastEmulator

/// A sender joined to a virtual device in memory: one ``EmbeddedByteChannel`` adopted by the
/// device as its listener would adopt a TLS connection, on an ``EmbeddedLoop`` whose manual
/// clock is the device's. No socket, no TLS, no thread and no real time: a frame the test
/// sends is handled when the loop runs, and every timer of the device (reply delays,
/// liveness, deadlines of the engine) falls due only when the test advances the clock.
final class MemorySender: Sendable {
    let loop: EmbeddedLoop
    let channel: EmbeddedByteChannel
    /// Held here: the device's connections hold it only weakly, as its listener would.
    let device: VirtualDevice
    private let inbox = Locked(Inbox())

    private struct Inbox {
        var decoder = CastFrameDecoder()
        var messages: [CastMessage] = []
        /// The bytes received after the last whole frame.
        var tail: [UInt8] = []
        /// How many of the channel's writes have been taken.
        var writesTaken = 0
        var failure: String?
    }

    /// Connects to `device`, which must run on `loop`'s clock (``device(on:configure:)``).
    init(to device: VirtualDevice, loop: EmbeddedLoop) {
        self.loop = loop
        self.device = device
        channel = EmbeddedByteChannel(loop: loop)
        device.attach(channel)
        loop.run()
    }

    /// A device that has not started (no listener, no certificate) on `loop`'s clock, with
    /// `configure` applied to its configuration.
    static func device(
        on loop: EmbeddedLoop,
        log: RecordingLog? = nil,
        configure: (inout VirtualDeviceConfiguration) -> Void = { _ in }
    ) -> VirtualDevice {
        var configuration = VirtualDeviceConfiguration(
            identity: DeviceIdentity(friendlyName: "Memory Device", deviceID: "ffeeddccbbaa99887766554433221100")
        )
        configure(&configuration)
        return VirtualDevice(
            configuration: configuration,
            options: DeviceServerOptions(address: "127.0.0.1"),
            clock: loop.clock,
            log: log
        )
    }

    /// A device hosting the scripted engine (``ScriptedEngine``) on `loop`'s clock, not
    /// started, with the identity of ``ServerTestDevices``.
    static func scriptedDevice(on loop: EmbeddedLoop) -> VirtualDevice {
        VirtualDevice(
            configuration: VirtualDeviceConfiguration(identity: ServerTestDevices.identity),
            options: DeviceServerOptions(address: "127.0.0.1"),
            clock: loop.clock,
            log: nil,
            advertiser: nil,
            certificateKey: nil
        ) { _ in ScriptedEngine() }
    }

    func send(_ message: CastMessage) throws {
        channel.writeInbound(try CastFrameEncoder.encode(message.serializedBytes()))
        loop.run()
    }

    func send(namespace: CastNamespace, _ text: String, destination: String = "receiver-0") throws {
        try send(CastMessage(sourceID: "sender-0", destinationID: destination, namespace: namespace, text: text))
    }

    /// Bytes as they are, framed or not.
    func sendRaw(_ bytes: [UInt8]) {
        channel.writeInbound(bytes)
        loop.run()
    }

    /// The messages the device has sent so far and not yet received, after running the
    /// loop's queued work; no time passes.
    func pending() -> [CastMessage] {
        loop.run()
        collect()
        return inbox.withLock { inbox in
            defer { inbox.messages = [] }
            return inbox.messages
        }
    }

    /// The next message, running the loop's work until one arrives; `nil` when the device
    /// closed the connection first. Time does not move: a message that only a timer sends
    /// needs ``advance(by:)`` first. A hang guard stands behind the wait.
    func receive() async throws -> CastMessage? {
        try await withDeadline(TestTiming.hangGuard, "a message from the device") { [self] in
            try await loop.run(until: { [self] in
                collect()
                return inbox.withLock { !$0.messages.isEmpty || $0.failure != nil } || channel.isClosed
            })
        }
        collect()
        return try inbox.withLock { inbox throws -> CastMessage? in
            if let failure = inbox.failure { throw DeadlineExceeded(what: "a readable frame (\(failure))") }
            return inbox.messages.isEmpty ? nil : inbox.messages.removeFirst()
        }
    }

    /// Runs the loop's work until the device closes the connection, then returns the bytes
    /// received and not yet taken as messages: the frames waiting, then any part of a frame.
    /// A hang guard stands behind the wait.
    func readToEnd() async throws -> [UInt8] {
        try await withDeadline(TestTiming.hangGuard, "the device to close the connection") { [self] in
            try await loop.run(until: { [self] in
                collect()
                return channel.isClosed
            })
        }
        collect()
        return try inbox.withLock { inbox in
            defer { inbox.messages = [] }
            var bytes: [UInt8] = []
            for message in inbox.messages { bytes += try CastFrameEncoder.encode(message.serializedBytes()) }
            return bytes + inbox.tail
        }
    }

    /// Moves the clock of the loop (and so of the device).
    func advance(by duration: Duration) { loop.advance(by: duration) }

    /// Whether the device closed the connection (after running the queued work).
    var isClosed: Bool {
        loop.run()
        return channel.isClosed
    }

    /// Closes the sender's end, as a sender hanging up.
    func close() {
        channel.writeInboundEnd()
        loop.run()
    }

    /// Reads what the device wrote so far into the messages waiting, without running the
    /// loop: for a condition of the loop's own run (``EmbeddedLoop/run(until:)``).
    func takeOutput() { collect() }

    /// Takes what the device wrote since the last call. The bytes come from the channel's
    /// record of writes, which a close does not clear (a socket delivers what was sent before
    /// its FIN); reading the outbound buffer as well tells the device's side it drained.
    private func collect() {
        _ = channel.readOutbound()
        let writes = channel.written
        inbox.withLock { inbox in
            guard writes.count > inbox.writesTaken else { return }
            for bytes in writes[inbox.writesTaken...] {
                inbox.decoder.append(bytes)
                inbox.tail += bytes
            }
            inbox.writesTaken = writes.count
            do {
                while let body = try inbox.decoder.nextFrame() {
                    inbox.tail.removeFirst(min(inbox.tail.count, 4 + body.count))
                    inbox.messages.append(try CastMessage(serializedBytes: body))
                }
            } catch {
                inbox.failure = "\(error)"
            }
        }
    }
}
