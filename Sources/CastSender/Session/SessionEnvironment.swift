import CastNet

/// What a session needs from its context.
struct SessionEnvironment: Sendable {
    var options: CastOptions
    var connector: any CastTransportConnector
    var clock: any CastClock
    var random: @Sendable () -> Double
    var launchCredentials: @Sendable () -> CredentialsData?
    var store: SessionStore?
    /// How devices added by address are named; `nil` names them from discovery or their address.
    var setupInfo: DeviceSetupInfoSource?
}
