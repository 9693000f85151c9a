import CastCore
import CastNet
import Foundation

/// One sender's TLS connection to a virtual device: a reader that turns frames into
/// ``CastMessage``s for the device, and a writer that sends queued frames in order.
///
/// The send queue is bounded (``VirtualDeviceConfiguration/sendQueueLimit`` frames): a
/// sender that stops reading while the device keeps talking is disconnected instead of
/// growing memory. Reading pauses on its own while the device is busy with earlier frames
/// (the transport's receive buffer is bounded too).
final class DeviceConnection: Sendable {
    /// What the writer does next.
    enum Outbound: Sendable {
        /// Send a frame, not before `notBefore` when set, and log `message`.
        case frame([UInt8], message: CastMessage, notBefore: CastInstant?)
        /// Close once the frames before are sent.
        case close
        /// Send `bytes` (a partial frame), then close.
        case crash([UInt8])
    }

    let id: Int
    let transport: TCPConnection
    private let outbound: AsyncStream<Outbound>.Continuation
    private let stream: AsyncStream<Outbound>

    init(id: Int, transport: TCPConnection, queueLimit: Int) {
        self.id = id
        self.transport = transport
        (stream, outbound) = AsyncStream.makeStream(of: Outbound.self, bufferingPolicy: .bufferingOldest(queueLimit))
    }

    /// The outcome of ``enqueue(_:)``.
    enum EnqueueResult: Equatable {
        /// The writer will send it.
        case queued
        /// The queue is full: the sender is not reading.
        case full
        /// The writer has stopped: the connection is closing.
        case closed
    }

    /// Queues `item` for the writer.
    func enqueue(_ item: Outbound) -> EnqueueResult {
        switch outbound.yield(item) {
        case .enqueued: .queued
        case .dropped: .full
        case .terminated: .closed
        @unknown default: .closed
        }
    }

    /// Stops the writer and closes the transport.
    func abort() {
        outbound.finish()
        transport.close()
    }

    /// Reads frames until the peer closes or sends something invalid. Returns why it stopped.
    func runReader(
        maximumBodySize: Int,
        deliver: (CastMessage) -> Void
    ) async -> String {
        var decoder = CastFrameDecoder(maximumBodySize: maximumBodySize)
        do {
            while true {
                guard let bytes = try await transport.receive() else { return "closed by peer" }
                decoder.append(bytes)
                while let body = try decoder.nextFrame() {
                    let message: CastMessage
                    do {
                        message = try CastMessage(serializedBytes: body)
                    } catch {
                        transport.close()
                        return "malformed CastMessage: \(error)"
                    }
                    if let problem = Self.validityProblem(message) {
                        transport.close()
                        return "invalid CastMessage: \(problem)"
                    }
                    deliver(message)
                }
            }
        } catch let error as FrameError {
            transport.close()
            return "framing error: \(error)"
        } catch {
            return "transport error: \(error)"
        }
    }

    /// Chromium's validity rule: non-empty IDs and namespace, and the payload that the
    /// payload type names.
    static func validityProblem(_ message: CastMessage) -> String? {
        if message.sourceID.isEmpty { return "empty source_id" }
        if message.destinationID.isEmpty { return "empty destination_id" }
        if message.namespace.rawValue.isEmpty { return "empty namespace" }
        switch message.payloadType {
        case .string where message.payloadUTF8 == nil: return "payload_type STRING without payload_utf8"
        case .binary where message.payloadBinary == nil: return "payload_type BINARY without payload_binary"
        default: return nil
        }
    }

    /// Sends queued frames until closed; `logSent` runs after each frame is handed over.
    func runWriter(clock: any CastClock, logSent: (CastMessage) -> Void) async {
        for await item in stream {
            switch item {
            case .frame(let bytes, let message, let notBefore):
                if let notBefore {
                    let wait = clock.now.duration(to: notBefore)
                    if wait > .zero { try? await clock.sleep(for: wait) }
                }
                do {
                    try await transport.send(bytes)
                } catch {
                    transport.close()
                    return
                }
                logSent(message)
            case .close:
                transport.close()
                return
            case .crash(let bytes):
                try? await transport.send(bytes)
                transport.close()
                return
            }
        }
        transport.close()
    }
}
