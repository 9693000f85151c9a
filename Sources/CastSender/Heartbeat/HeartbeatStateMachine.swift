import CastTime

/// Keeps a device connection alive and notices when it dies: a PING every ``interval``,
/// and the connection is lost once ``timeout`` passes without a PONG (or a PING from the
/// device, which proves it is alive too).
///
/// The owner calls ``tick(now:)`` every ``interval`` and performs the returned action.
struct HeartbeatStateMachine: Sendable {
    enum Action: Hashable, Sendable {
        /// Send PING and call ``HeartbeatStateMachine/tick(now:)`` again after the interval.
        case sendPing
        /// No PONG within the timeout: the connection is dead.
        case connectionLost(silence: Duration)
        /// Nothing to do (stopped).
        case none
    }

    let interval: Duration
    let timeout: Duration
    private var lastHeard: CastInstant
    private var running = true

    init(interval: Duration = .seconds(5), timeout: Duration = .seconds(10), now: CastInstant) {
        self.interval = interval
        self.timeout = timeout
        self.lastHeard = now
    }

    /// A PONG or PING came from the device.
    mutating func heard(now: CastInstant) {
        if now > lastHeard { lastHeard = now }
    }

    /// The periodic check.
    mutating func tick(now: CastInstant) -> Action {
        guard running else { return .none }
        let silence = lastHeard.duration(to: now)
        if silence >= timeout {
            running = false
            return .connectionLost(silence: silence)
        }
        return .sendPing
    }

    /// Stops the machine; later ticks do nothing.
    mutating func stop() {
        running = false
    }
}
