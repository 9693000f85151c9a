import CastCore
import CastTime

/// The inbound side of one Cast connection as a value type: framing, who consumes frames,
/// whether the socket is read, the frame deadline and the close.
///
/// Each event is one mutating method that returns the ``Action``s its owner
/// (``CastConnectionCore``, on the channel's loop) performs: the machine holds no channel,
/// continuation or closure. At most one frame waits here for its consumer, and reading
/// stops while it does.
struct CastConnectionStateMachine: Sendable {
    /// Who takes the frames.
    enum Delivery: Hashable, Sendable {
        /// Nobody consumes yet: reading is off.
        case none
        /// Frames go to `frames` iterators, one request at a time.
        case pull
        /// Frames go to a handler.
        case push
    }

    /// What the owner does.
    enum Action: Hashable, Sendable {
        /// Answers the request that caused this action (``frameRequested()``).
        case answerRequest(Result<[UInt8]?, CastConnectionError>)
        /// Keeps the request that caused this action until a frame or the close answers it.
        case holdRequest
        /// Answers the request held earlier.
        case resumeHeldRequest(Result<[UInt8]?, CastConnectionError>)
        /// Hands a frame to the handler.
        case deliver([UInt8])
        /// Turns reading from the socket on or off.
        case setReading(Bool)
        /// Asks the channel for at most this many bytes per read.
        case setMaximumReadSize(Int)
        /// Arms the timer that calls ``frameDeadlinePassed(now:)``.
        case armFrameTimer(after: Duration)
        /// Closes the channel with this error.
        case closeChannel(CastConnectionError)
        /// Closes the channel after what is queued is written.
        case closeGracefully
        /// The connection is closed: the owner tells everyone who waits, reporting this
        /// error (`nil` for an orderly close), and cancels the frame timer.
        case finish(CastConnectionError?)
    }

    private var decoder: CastFrameDecoder
    private let frameTimeout: Duration?
    private(set) var delivery = Delivery.none
    private var ready: [UInt8]?
    private var holdsRequest = false
    private var endOfStream = false
    /// Whether the channel reported its close.
    private(set) var isFinished = false
    /// Why the connection closed (or is closing); `nil` for an orderly close.
    private(set) var closeError: CastConnectionError?
    /// When the frame now partly read began, while the configuration limits a frame's time.
    private var partialFrameStart: CastInstant?
    /// At most one timer checks the frame deadline; it is re-armed for a later frame rather
    /// than armed and cancelled for every frame.
    private var frameTimerArmed = false
    /// Frames completed so far, for the error message.
    private var framesRead = 0

    init(limits: CastConnectionLimits) {
        decoder = CastFrameDecoder(maximumBodySize: limits.maximumBodySize)
        frameTimeout = limits.frameTimeout
    }

    /// The read size for the bytes that complete the current header or frame, exactly.
    var maximumReadSize: Int {
        if let needed = decoder.bytesNeededForNextFrame { return max(1, needed) }
        return CastFrameDecoder.headerSize - decoder.bufferedByteCount
    }

    // MARK: Consumers

    /// A `frames` iterator asks for the next frame.
    mutating func frameRequested() -> [Action] {
        if delivery == .push {
            return [
                .answerRequest(
                    .failure(CastConnectionError(code: .closed, reason: "frames are delivered to a handler"))
                )
            ]
        }
        delivery = .pull
        if let frame = ready {
            ready = nil
            return [.answerRequest(.success(frame))] + readingUpdate()
        }
        if isFinished {
            return [.answerRequest(closeError.map { .failure($0) } ?? .success(nil))]
        }
        guard !holdsRequest else {
            return [
                .answerRequest(.failure(CastConnectionError(code: .closed, reason: "frames has only one consumer")))
            ]
        }
        holdsRequest = true
        return [.holdRequest] + readingUpdate()
    }

    /// The iterator waiting for a frame was cancelled.
    mutating func requestCancelled() -> [Action] {
        guard holdsRequest else { return [] }
        holdsRequest = false
        return [.resumeHeldRequest(.success(nil))] + readingUpdate()
    }

    /// A handler takes the frames from now on.
    mutating func handlerInstalled() -> [Action] {
        delivery = .push
        var actions: [Action] = []
        if let frame = ready {
            ready = nil
            actions.append(.deliver(frame))
        }
        return actions + readingUpdate()
    }

    private func readingUpdate() -> [Action] {
        guard !isFinished, !endOfStream else { return [] }
        switch delivery {
        case .none: return [.setReading(false)]
        case .pull: return [.setReading(ready == nil && holdsRequest)]
        case .push: return [.setReading(true)]
        }
    }

    // MARK: Closing

    /// The owner closes the connection; `reason` is kept as the close's description.
    mutating func closeRequested(reason: String?) -> [Action] {
        guard !isFinished else { return [] }
        if let reason { closeError = CastConnectionError(code: .closed, reason: reason) }
        return [.closeGracefully]
    }

    /// The connection fails with `error` (the first error is the one reported).
    mutating func failed(_ error: CastConnectionError) -> [Action] {
        guard !isFinished else { return [] }
        if closeError == nil { closeError = error }
        return [.closeChannel(error)]
    }

    // MARK: Channel events

    /// Bytes arrived; `now` is read only when a frame deadline starts.
    mutating func bytesRead(_ bytes: UnsafeRawBufferPointer, now: @autoclosure () -> CastInstant) -> [Action] {
        decoder.append(bytes)
        let frame: [UInt8]?
        do {
            frame = try decoder.nextFrame()
        } catch {
            return failed(CastConnectionError(code: .framing, reason: error.description, underlying: error))
        }
        var actions: [Action] = [.setMaximumReadSize(maximumReadSize)]
        if frame != nil { framesRead += 1 }
        if let limit = frameTimeout {
            if decoder.bufferedByteCount == 0 {
                partialFrameStart = nil
            } else {
                if partialFrameStart == nil { partialFrameStart = now() }
                if !frameTimerArmed {
                    frameTimerArmed = true
                    actions.append(.armFrameTimer(after: limit))
                }
            }
        }
        guard let frame else { return actions }
        switch delivery {
        case .push:
            actions.append(.deliver(frame))
        case .pull where holdsRequest:
            holdsRequest = false
            actions.append(.resumeHeldRequest(.success(frame)))
        case .pull, .none:
            ready = frame
            actions.append(.setReading(false))
        }
        return actions
    }

    /// The frame timer fired: the connection fails when the frame now partly read is past its
    /// deadline; else the timer is re-armed for the current frame's deadline, or stays idle
    /// until the next frame begins.
    mutating func frameDeadlinePassed(now: CastInstant) -> [Action] {
        frameTimerArmed = false
        guard !isFinished, let limit = frameTimeout, let start = partialFrameStart else { return [] }
        let waited = start.duration(to: now)
        guard waited >= limit else {
            frameTimerArmed = true
            return [.armFrameTimer(after: limit - waited)]
        }
        return failed(
            CastConnectionError(
                code: .frameTimeout,
                reason: "frame \(framesRead + 1) stayed unfinished for \(waited) (limit \(limit)): "
                    + "\(decoder.bufferedByteCount) of its bytes arrived"
            )
        )
    }

    /// The peer closed its side of the stream.
    mutating func endOfFileRead() -> [Action] {
        endOfStream = true
        guard decoder.bufferedByteCount == 0 else {
            return failed(
                CastConnectionError(
                    code: .truncatedFrame,
                    reason: "the peer closed the stream with \(decoder.bufferedByteCount) bytes of an unfinished frame"
                )
            )
        }
        // The peer finished at a frame boundary: close our side too.
        return [.closeGracefully]
    }

    /// The channel closed, with `transportError` when the transport failed.
    mutating func channelClosed(transportError: CastConnectionError?) -> [Action] {
        isFinished = true
        frameTimerArmed = false
        if closeError == nil, let transportError { closeError = transportError }
        // A close the owner asked for is orderly, whatever its reason.
        let reported = closeError.flatMap { $0.code == .closed ? nil : $0 }
        closeError = reported
        var actions: [Action] = []
        if holdsRequest, ready == nil {
            holdsRequest = false
            actions.append(.resumeHeldRequest(reported.map { .failure($0) } ?? .success(nil)))
        }
        if delivery == .push { delivery = .none }
        return actions + [.finish(reported)]
    }
}
