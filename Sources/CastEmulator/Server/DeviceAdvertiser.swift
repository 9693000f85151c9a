/// The place where mDNS advertisement plugs in: a fleet or device tells it when each device
/// starts, changes status, and stops (the moment to send goodbye packets).
///
/// Calls come from any task; implementations hop to their own executor.
public protocol DeviceAdvertiser: Sendable {
    /// A device started listening.
    func deviceDidStart(_ advertisement: DeviceAdvertisement)
    /// A device's TXT data changed (an app started or stopped).
    func deviceDidUpdate(_ advertisement: DeviceAdvertisement)
    /// A device is about to stop; announce its departure.
    func deviceWillStop(_ advertisement: DeviceAdvertisement)
}
