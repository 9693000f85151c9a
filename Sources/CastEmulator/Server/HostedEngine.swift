import CastCore
import CastNet

/// What the I/O owner (``VirtualDevice``) needs from the device's behaviour: a sans-I/O
/// engine that takes messages, connection events and time, and returns what to do.
///
/// The engine is a value type kept under the device's lock; every method runs there and must
/// not block. Connection numbers are the device's own (see ``FrameLogRecord/connection``).
protocol HostedEngine: Sendable {
    /// A sender connected (TLS done).
    mutating func connectionOpened(_ connection: Int, at now: CastInstant) -> [HostedEngineOutput]
    /// A sender sent `message`.
    mutating func receive(_ message: CastMessage, from connection: Int, at now: CastInstant) -> [HostedEngineOutput]
    /// A sender's connection is gone (closed by either side).
    mutating func connectionClosed(_ connection: Int, at now: CastInstant) -> [HostedEngineOutput]
    /// Time passed; called at or after ``nextDeadline``.
    mutating func tick(at now: CastInstant) -> [HostedEngineOutput]
    /// When the engine next needs ``tick(at:)``, or `nil`.
    var nextDeadline: CastInstant? { get }
    /// What the device advertises about its running app (mDNS `st` and `rs`).
    var advertisedStatus: DeviceAdvertisedStatus { get }
}

/// One thing the engine asks the I/O owner to do.
enum HostedEngineOutput: Sendable, Equatable {
    /// Send `message` on connection `connection`.
    case send(CastMessage, to: Int)
    /// Close connection `connection` once what was queued before is sent.
    case close(Int)
}

/// The part of a device's state its mDNS advertisement carries.
public struct DeviceAdvertisedStatus: Sendable, Equatable {
    /// Whether an app (other than the idle screen) is running: TXT `st` 1 instead of 0.
    public var isBusy: Bool
    /// The running app's status text or name: TXT `rs`.
    public var statusText: String

    /// Creates a status.
    public init(isBusy: Bool, statusText: String) {
        self.isBusy = isBusy
        self.statusText = statusText
    }

    /// Nothing running.
    public static let idle = DeviceAdvertisedStatus(isBusy: false, statusText: "")
}
