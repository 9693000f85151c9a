import CastTime

/// What a session needs from its context.
struct SessionEnvironment: Sendable {
    var options: CastOptions
    var connector: any CastTransportConnector
    var clock: any CastClock
    var random: @Sendable () -> Double
    var launchCredentials: @Sendable () -> CredentialsData?
    var store: SessionStore?
    /// Called when a LOAD sent by a session's remote media client succeeded.
    var mediaLoaded: @Sendable () -> Void = {}
    /// Finds a device by its unique id through discovery (for resuming a saved session on a
    /// device whose address changed); `nil` when discovery does not know it.
    var locateDevice: @Sendable (_ uniqueID: String) async -> CastDevice? = { _ in nil }
    /// How devices added by address are named; `nil` names them from discovery or their address.
    var setupInfo: DeviceSetupInfoSource?
    /// Connections that checked a device, kept for the session that follows (shared by the
    /// context's discovery and session managers).
    var handover = ConnectionHandover()
    /// The devices already named in the log as accepted without authentication.
    var unauthenticatedDevices = UnauthenticatedDeviceWarnings()
    /// Called when a session to a speaker group learned the group's members.
    var groupMembersLearned: @Sendable (_ group: CastDevice, _ members: [CastDevice.GroupReference]) -> Void = {
        _,
        _ in
    }
    /// Called when a session learned the speaker groups its device belongs to.
    var castingGroupsLearned: @Sendable (_ device: CastDevice, _ groups: [CastDevice.GroupReference]) -> Void = {
        _,
        _ in
    }
}
