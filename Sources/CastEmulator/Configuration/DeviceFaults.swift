public import CastCore

/// Misbehaviour a virtual device can be switched into, to test how senders cope.
///
/// Faults that are pure I/O (dropping or stalling a connection, delaying replies) belong to
/// the owner of the engine; these change what the device answers. Restarting the running
/// app is an event: ``VirtualDeviceEngine/restartApplication(at:)``.
public struct DeviceFaults: Hashable, Sendable {
    /// The device stops answering `PING`s (senders soon declare it dead).
    public var ignoresPings: Bool
    /// Every `LAUNCH` is refused with `LAUNCH_ERROR` and this reason, e.g. `CANCELLED`.
    public var launchRefusal: LaunchErrorReason?
    /// The next `LOAD` (or `QUEUE_LOAD`) fails with `LOAD_FAILED`; the switch then resets.
    public var failsNextLoad: Bool

    /// Creates a set of faults; by default the device behaves.
    public init(ignoresPings: Bool = false, launchRefusal: LaunchErrorReason? = nil, failsNextLoad: Bool = false) {
        self.ignoresPings = ignoresPings
        self.launchRefusal = launchRefusal
        self.failsNextLoad = failsNextLoad
    }

    /// No faults.
    public static let none = DeviceFaults()
}
