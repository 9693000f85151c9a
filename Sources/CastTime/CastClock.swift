/// A point in time on a ``CastClock``: the one instant type of swift-cast.
///
/// Every state machine takes time as a `CastInstant`: the SDK's heartbeat, requests and
/// media status, the mDNS querier and responder, and the virtual device's engine (which calls
/// it `DeviceInstant`). Only differences between instants of one clock mean anything; the
/// origin is the clock's choice.
public struct CastInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The time elapsed since the clock's origin.
    public var offset: Duration

    /// Creates an instant at `offset` after the clock's origin.
    public init(offset: Duration) {
        self.offset = offset
    }

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> CastInstant {
        CastInstant(offset: offset + duration)
    }

    /// The time from this instant to `other` (negative when `other` is earlier).
    public func duration(to other: CastInstant) -> Duration {
        other.offset - offset
    }

    /// The clock's origin.
    public static let zero = CastInstant(offset: .zero)

    /// The instant `seconds` after the clock's origin.
    public static func seconds(_ seconds: Double) -> CastInstant {
        CastInstant(offset: .seconds(seconds))
    }

    public static func < (lhs: CastInstant, rhs: CastInstant) -> Bool { lhs.offset < rhs.offset }

    /// The instant `duration` after `instant`.
    public static func + (instant: CastInstant, duration: Duration) -> CastInstant {
        CastInstant(offset: instant.offset + duration)
    }

    /// The instant `duration` before `instant`.
    public static func - (instant: CastInstant, duration: Duration) -> CastInstant {
        CastInstant(offset: instant.offset - duration)
    }

    /// The time from `rhs` to `lhs` (negative when `lhs` is earlier).
    public static func - (lhs: CastInstant, rhs: CastInstant) -> Duration {
        lhs.offset - rhs.offset
    }

    public var description: String { "\(offset)" }
}

/// A handle on a scheduled action; cancelling it stops the action from running.
public struct CastTimer: Sendable {
    private let cancelAction: @Sendable () -> Void

    /// Creates a handle that runs `cancel` when the timer is cancelled.
    public init(cancel: @escaping @Sendable () -> Void) {
        self.cancelAction = cancel
    }

    /// Cancels the timer. Has no effect once the action has started.
    public func cancel() {
        cancelAction()
    }
}

/// The source of time for every timeout in Cast: connect and handshake timeouts, heartbeats,
/// request timeouts and reconnection backoff.
///
/// Production code uses ``SystemCastClock``; tests inject ``ManualCastClock`` and move time
/// forward explicitly, so timeouts are tested without waiting.
public protocol CastClock: Sendable {
    /// The current time.
    var now: CastInstant { get }

    /// Runs `action` once, `delay` from now, unless the returned timer is cancelled first.
    ///
    /// The action runs on a queue of the clock's choosing; it must hop to its own queue.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> CastTimer
}

extension CastClock {
    /// Suspends the current task for `duration` of this clock's time.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(for duration: Duration) async throws {
        let sleeper = Sleeper()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard sleeper.install(continuation) else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                let timer = schedule(after: duration) { sleeper.finish(with: nil) }
                sleeper.attach(timer)
            }
        } onCancel: {
            sleeper.finish(with: CancellationError())
        }
    }
}
