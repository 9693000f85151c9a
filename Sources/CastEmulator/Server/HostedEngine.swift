import CastCore

/// What ``VirtualDevice`` needs from the device's behaviour: the events and state of
/// ``VirtualDeviceEngine``. A protocol so the server's own tests can host a scripted engine.
protocol HostedEngine: Sendable {
    var faults: DeviceFaults { get set }
    var nextDeadline: DeviceInstant? { get }
    var runningApplication: ReceiverApplication? { get }
    mutating func connectionOpened(_ id: ConnectionID, at now: DeviceInstant) -> [DeviceAction]
    mutating func connectionClosed(_ id: ConnectionID, at now: DeviceInstant) -> [DeviceAction]
    mutating func received(_ message: CastMessage, from id: ConnectionID, at now: DeviceInstant) -> [DeviceAction]
    mutating func tick(at now: DeviceInstant) -> [DeviceAction]
    mutating func restartApplication(at now: DeviceInstant) -> [DeviceAction]
}

extension VirtualDeviceEngine: HostedEngine {}

/// The part of a device's state its mDNS advertisement carries.
public struct DeviceAdvertisedStatus: Sendable, Equatable {
    /// Whether an app other than the idle screen runs: TXT `st` 1 instead of 0.
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

    /// The status of a device running `application`.
    init(application: ReceiverApplication?) {
        guard let application, application.isIdleScreen != true else {
            self = .idle
            return
        }
        self.init(isBusy: true, statusText: application.statusText ?? application.displayName ?? application.appId)
    }
}
