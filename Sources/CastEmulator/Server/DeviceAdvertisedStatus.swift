import CastCore

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
        self.init(isBusy: true, statusText: application.statusText ?? application.displayName ?? application.appID)
    }
}
