import CastNet

/// What a session needs from its context.
struct SessionEnvironment: Sendable {
    var options: CastOptions
    var connector: any CastTransportConnector
    var clock: any CastClock
    var random: @Sendable () -> Double
    var launchCredentials: @Sendable () -> CredentialsData?
    var store: SessionStore?
}
