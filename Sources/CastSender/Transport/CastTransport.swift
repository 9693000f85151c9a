package import CastTime

/// What a ``CastTransport`` reports about its connection.
package enum CastTransportEvent: Sendable {
    /// A message arrived.
    case message(CastMessage)
    /// The connection closed: `nil` for an orderly close.
    case closed(CastError?)
}

/// One connection to a device, carrying `CastMessage`s (TLS in production, memory in tests).
package protocol CastTransport: AnyObject, Sendable {
    /// The DER of the TLS certificate the device presented, if any.
    var peerCertificateDER: [UInt8]? { get }
    /// Queues a message for sending.
    func send(_ message: CastMessage) throws(CastError)
    /// Closes the connection; a `.closed` event follows.
    func close()
    /// Schedules `action` on `clock`, on the thread the connection's events arrive on when the
    /// transport can (the connection's timers then wake no other thread).
    func scheduleTimer(
        after delay: Duration,
        on clock: any CastClock,
        _ action: @escaping @Sendable () -> Void
    )
        -> CastTimer
    /// The executor of the thread the connection's events arrive on, if it has one.
    var taskExecutor: (any TaskExecutor)? { get }
}

extension CastTransport {
    package var taskExecutor: (any TaskExecutor)? { nil }

    package func scheduleTimer(
        after delay: Duration,
        on clock: any CastClock,
        _ action: @escaping @Sendable () -> Void
    ) -> CastTimer {
        clock.schedule(after: delay, action)
    }
}

/// Opens ``CastTransport``s.
package protocol CastTransportConnector: Sendable {
    /// Connects to the device at `host`:`port`; `onEvent` receives every inbound message and
    /// the close, in order.
    func connect(
        host: String,
        port: Int,
        onEvent: @escaping @Sendable (CastTransportEvent) -> Void
    ) async throws(CastError) -> any CastTransport
}
