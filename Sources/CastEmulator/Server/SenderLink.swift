import CastCore
import CastNet
import CastNetCore
import CastSync
import CastTime

/// The device's end of one sender's Cast connection, around `CastNet`'s ``CastConnection``
/// (the SDK's `DeviceConnection` is the sender's end).
///
/// Inbound frames arrive on the connection's event loop (no task per connection). Outbound
/// frames go straight to the connection, or, while a reply delay is in force, wait in a FIFO
/// released by a clock timer, so frames keep their order on the connection whatever the
/// delay. Both queues are bounded: the connection's own (bytes waiting for the socket) and
/// the delay queue (the same number of bytes); past either the connection is closed.
final class SenderLink: Sendable {
    /// The outcome of ``send(_:body:notBefore:)``.
    enum SendResult: Equatable {
        /// Sent, or queued behind earlier delayed frames.
        case queued
        /// The body is over the frame size limit; the connection stays open.
        case tooLarge
        /// A queue is full: the sender is not reading. The connection is closing.
        case full
        /// The connection is closed.
        case closed
    }

    private struct Delayed {
        var body: [UInt8]
        var message: CastMessage
        var notBefore: CastInstant
    }

    private struct State {
        var delayed: [Delayed] = []
        var delayedHead = 0
        var delayedBytes = 0
        var timer: CastTimer?
        var closeWhenFlushed = false
        var closed = false
    }

    let id: Int
    let transport: CastConnection
    private let clock: any CastClock
    private let queueLimit: Int
    private let logSent: @Sendable (CastMessage) -> Void
    private let state = Locked(State())

    init(
        id: Int,
        transport: CastConnection,
        clock: any CastClock,
        queueLimit: Int,
        logSent: @escaping @Sendable (CastMessage) -> Void
    ) {
        self.id = id
        self.transport = transport
        self.clock = clock
        self.queueLimit = queueLimit
        self.logSent = logSent
    }

    /// Sends `message` (serialized as `body`), not before `notBefore` when given, and after
    /// every frame queued before it.
    func send(_ message: CastMessage, body: [UInt8], notBefore: CastInstant?) -> SendResult {
        state.withLock { state in
            guard !state.closed else { return .closed }
            let waiting = state.delayedHead < state.delayed.count
            if !waiting && (notBefore.map { $0 <= clock.now } ?? true) {
                return sendNow(message, body: body)
            }
            guard state.delayedBytes + body.count <= queueLimit else {
                state.closed = true
                transport.close(reason: "delayed-frame queue full (\(queueLimit) bytes): the sender is not reading")
                return .full
            }
            state.delayed.append(Delayed(body: body, message: message, notBefore: notBefore ?? clock.now))
            state.delayedBytes += body.count
            if state.timer == nil { armTimer(&state) }
            return .queued
        }
    }

    /// Closes once every frame queued so far is sent.
    func closeAfterQueuedFrames(reason: String) {
        state.withLock { state in
            guard !state.closed else { return }
            if state.delayedHead < state.delayed.count {
                state.closeWhenFlushed = true
            } else {
                state.closed = true
                transport.close(reason: reason)
            }
        }
    }

    /// Closes now; frames still delayed are dropped.
    func close(reason: String) {
        let timer = state.withLock { state -> CastTimer? in
            state.closed = true
            state.delayed = []
            state.delayedHead = 0
            state.delayedBytes = 0
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
        transport.close(reason: reason)
    }

    /// Sends `bytes` unframed (part of a frame) and closes.
    func crash(sending bytes: [UInt8]) {
        let timer = state.withLock { state -> CastTimer? in
            state.closed = true
            state.delayed = []
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
        transport.sendUnframedThenClose(bytes)
    }

    /// Stops every further frame and writes `bytes` unframed instead (a broken frame); the
    /// connection stays open until the sender closes it.
    func jam(sending bytes: [UInt8]) {
        let timer = stopFrames()
        timer?.cancel()
        transport.sendUnframed(bytes)
    }

    /// Stops every further frame and writes `bytes` one at a time, one every `interval`,
    /// while the connection stays open.
    func trickle(_ bytes: [UInt8], every interval: Duration) {
        let timer = stopFrames()
        timer?.cancel()
        trickleNext(bytes[...], every: interval)
    }

    private func stopFrames() -> CastTimer? {
        state.withLock { state -> CastTimer? in
            state.closed = true
            state.delayed = []
            state.delayedHead = 0
            state.delayedBytes = 0
            defer { state.timer = nil }
            return state.timer
        }
    }

    private func trickleNext(_ bytes: ArraySlice<UInt8>, every interval: Duration) {
        guard let first = bytes.first, transport.sendUnframed([first]) else { return }
        let rest = bytes.dropFirst()
        let timer = clock.schedule(after: interval) { [weak self] in self?.trickleNext(rest, every: interval) }
        state.withLock { state in state.timer = timer }
    }

    // MARK: Delayed frames

    /// Hands the frame to the connection. It is logged first, so the log never lags behind
    /// what the sender has already seen.
    private func sendNow(_ message: CastMessage, body: [UInt8]) -> SendResult {
        guard body.count <= CastFrameDecoder.maximumBodySize else { return .tooLarge }
        logSent(message)
        do {
            try transport.send(body)
        } catch {
            if error.code == .messageTooLarge { return .tooLarge }
            return error.code == .sendQueueFull ? .full : .closed
        }
        return .queued
    }

    private func armTimer(_ state: inout State) {
        guard state.delayedHead < state.delayed.count else { return }
        let wait = max(.zero, clock.now.duration(to: state.delayed[state.delayedHead].notBefore))
        state.timer = clock.schedule(after: wait) { [weak self] in self?.flush() }
    }

    private func flush() {
        state.withLock { state in
            state.timer = nil
            guard !state.closed else { return }
            let now = clock.now
            while state.delayedHead < state.delayed.count, state.delayed[state.delayedHead].notBefore <= now {
                let frame = state.delayed[state.delayedHead]
                state.delayedHead += 1
                state.delayedBytes -= frame.body.count
                switch sendNow(frame.message, body: frame.body) {
                case .queued, .tooLarge:
                    continue
                case .full, .closed:
                    state.closed = true
                    return
                }
            }
            if state.delayedHead == state.delayed.count {
                state.delayed.removeAll(keepingCapacity: state.delayed.count <= 64)
                state.delayedHead = 0
                if state.closeWhenFlushed {
                    state.closed = true
                    transport.close(reason: "closed by the device")
                }
            } else {
                armTimer(&state)
            }
        }
    }
}
