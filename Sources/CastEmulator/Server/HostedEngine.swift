import CastCore
import CastTime

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
    func snapshot(at now: DeviceInstant) -> VirtualDeviceSnapshot?
    mutating func restore(_ snapshot: VirtualDeviceSnapshot, at now: DeviceInstant) -> [DeviceAction]
    var currentInputState: DeviceInputState? { get }
    mutating func setInputState(_ state: DeviceInputState, at now: DeviceInstant) -> [DeviceAction]
    mutating func setTLSCertificate(_ der: [UInt8])
    mutating func multizoneUpdate(_ update: MultizoneUpdate, at now: DeviceInstant) -> [DeviceAction]
    mutating func mediaProbed(
        _ id: UInt64,
        outcome: Result<MediaProbeResult, MediaLoadFailure>,
        at now: DeviceInstant
    ) -> [DeviceAction]
    func isFollowingStream(_ id: UInt64) -> Bool
    func isProbePending(_ id: UInt64) -> Bool
    mutating func mediaStreamEnded(_ id: UInt64, mediaSeconds: Double?, at now: DeviceInstant) -> [DeviceAction]
}

extension HostedEngine {
    func snapshot(at now: DeviceInstant) -> VirtualDeviceSnapshot? { nil }
    mutating func restore(_ snapshot: VirtualDeviceSnapshot, at now: DeviceInstant) -> [DeviceAction] { [] }
    /// A scripted engine has no HDMI input.
    var currentInputState: DeviceInputState? { nil }
    mutating func setInputState(_ state: DeviceInputState, at now: DeviceInstant) -> [DeviceAction] { [] }
    mutating func setTLSCertificate(_ der: [UInt8]) {}
    mutating func multizoneUpdate(_ update: MultizoneUpdate, at now: DeviceInstant) -> [DeviceAction] { [] }
    mutating func mediaProbed(
        _ id: UInt64,
        outcome: Result<MediaProbeResult, MediaLoadFailure>,
        at now: DeviceInstant
    ) -> [DeviceAction] { [] }
    func isFollowingStream(_ id: UInt64) -> Bool { false }
    func isProbePending(_ id: UInt64) -> Bool { false }
    mutating func mediaStreamEnded(_ id: UInt64, mediaSeconds: Double?, at now: DeviceInstant) -> [DeviceAction] { [] }
}

extension VirtualDeviceEngine: HostedEngine {
    mutating func setTLSCertificate(_ der: [UInt8]) { tlsCertificateDER = der }
}
