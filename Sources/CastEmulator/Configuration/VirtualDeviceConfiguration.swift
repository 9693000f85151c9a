public import CastCore

/// Everything that makes one virtual device what it is: identity, apps, volume, timing.
public struct VirtualDeviceConfiguration: Sendable {
    /// Name, id, model and capabilities.
    public var identity: DeviceIdentity
    /// How the device speaks: volume, equaliser, HDMI-CEC state, what an idle status lists.
    public var profile: DeviceProfile
    /// The apps the device can launch. Unknown ids get `LAUNCH_ERROR` `NOT_FOUND`.
    public var applications: [ReceiverAppDefinition]
    /// The app that runs while nothing else does (Backdrop by default); `nil` for none, so
    /// `RECEIVER_STATUS` lists no applications when idle. Must be in ``applications``.
    public var idleScreenAppID: String?
    /// The device volume at start.
    public var volume: Volume
    /// How the device volume can be controlled (`attenuation`, `fixed`, `master`): the
    /// profile's.
    public var volumeControlType: VolumeControlType {
        get { profile.volumeControlType }
        set { profile.volumeControlType = newValue }
    }
    /// The step of volume buttons reported in `RECEIVER_STATUS`: the profile's.
    public var volumeStepInterval: Double {
        get { profile.volumeStepInterval }
        set { profile.volumeStepInterval = newValue }
    }
    /// How long loading media takes: the player shows `BUFFERING` for this long after a
    /// `LOAD` (and between queue items that were not preloaded). Zero for benchmarks.
    public var bufferingDelay: Duration
    /// The duration, in seconds, of buffered media whose `LOAD` gives none. Live media
    /// without a duration never ends.
    public var defaultMediaDuration: Double
    /// While media plays, the device sends every connected sender an unsolicited
    /// `MEDIA_STATUS` this often, as some receivers do; `nil` (the default) sends status
    /// only when something changes. Load tests use it to stream status from many devices.
    public var statusInterval: Duration?
    /// The duration, in seconds, of ad break clips that give none.
    public var defaultBreakClipDuration: Double
    /// Content that fails to load: a `LOAD` whose `contentId` or `contentUrl` contains one of
    /// these strings gets `LOAD_FAILED` with `detailedErrorCode` 104.
    public var unloadableContentMarkers: [String]
    /// The device sends `PING` to a sender that has been silent this long.
    public var pingInterval: Duration
    /// The device closes a connection that has been silent this long (no message, not even
    /// a `PONG`); `nil` never closes. Senders ping every 5 to 10 s.
    public var livenessTimeout: Duration?
    /// How device-authentication challenges are answered.
    public var deviceAuthentication: DeviceAuthentication
    /// The most items a media queue holds; larger queues are refused.
    public var maximumQueueItems: Int
    /// The most virtual connections one TLS connection may open.
    public var maximumVirtualConnectionsPerConnection: Int
    /// Seeds the generator of session and transport ids; `nil` seeds it randomly. Set it to
    /// make a device's ids reproducible.
    public var randomSeed: UInt64?
    /// Whether the device reads the media it is asked to play (``MediaMode``);
    /// ``MediaMode/simulate`` by default, so harnesses may load URLs that do not exist.
    public var mediaMode: MediaMode = .simulate
    /// The speaker groups of the device: the members when it is a group, or the groups it
    /// belongs to; none by default.
    public var multizone = MultizoneConfiguration()

    /// Creates a configuration; every parameter but the identity has a default: the
    /// Default Media Receiver and Backdrop, and the ``DeviceProfile/generic`` profile.
    ///
    /// - Parameters:
    ///   - identity: the name, id, model and capabilities the device reports.
    ///   - profile: the class of real device to speak as (``DeviceProfile/init(model:)``
    ///     picks one for a model name). It sets the identity's capabilities, and without an
    ///     idle screen in the profile there is none. `nil` keeps the
    ///     ``DeviceProfile/generic`` behaviour, with HDMI-CEC state only for video devices.
    ///   - applications: the receiver apps the device can launch.
    ///   - idleScreenAppID: the app running when nothing else does (the backdrop), on devices
    ///     with a screen.
    ///   - volume: the device volume at start.
    ///   - volumeControlType: replaces the profile's, when given.
    ///   - volumeStepInterval: replaces the profile's, when given.
    ///   - bufferingDelay: how long a LOAD stays BUFFERING before it plays.
    ///   - defaultMediaDuration: the duration, in seconds, of simulated media that names none.
    ///   - statusInterval: how often a playing device sends unsolicited MEDIA_STATUS; `nil`
    ///     for only on change.
    ///   - defaultBreakClipDuration: the duration, in seconds, of break clips that name none.
    ///   - unloadableContentMarkers: content IDs containing one of these fail to load in
    ///     simulated playback.
    ///   - pingInterval: how often the device pings each sender.
    ///   - livenessTimeout: how long a connection may stay silent before the device closes
    ///     it; `nil` for never.
    ///   - deviceAuthentication: how device-authentication challenges are answered.
    ///   - maximumQueueItems: the most items a media queue holds; larger queues are refused.
    ///   - maximumVirtualConnectionsPerConnection: how many virtual connections one sender
    ///     connection may open.
    ///   - randomSeed: seeds the generator of session and transport IDs, for reproducible
    ///     IDs; `nil` seeds it randomly.
    public init(
        identity: DeviceIdentity,
        profile: DeviceProfile? = nil,
        applications: [ReceiverAppDefinition] = [.defaultMediaReceiver, .backdrop],
        idleScreenAppID: String? = ReceiverAppDefinition.backdrop.appID,
        volume: Volume = Volume(level: 1.0, muted: false),
        volumeControlType: VolumeControlType? = nil,
        volumeStepInterval: Double? = nil,
        bufferingDelay: Duration = .milliseconds(200),
        defaultMediaDuration: Double = 600,
        statusInterval: Duration? = nil,
        defaultBreakClipDuration: Double = 15,
        unloadableContentMarkers: [String] = ["unloadable"],
        pingInterval: Duration = .seconds(5),
        livenessTimeout: Duration? = .seconds(20),
        deviceAuthentication: DeviceAuthentication = .generated,
        maximumQueueItems: Int = 1000,
        maximumVirtualConnectionsPerConnection: Int = 64,
        randomSeed: UInt64? = nil
    ) {
        var identity = identity
        var chosen = profile ?? .generic
        if let profile { identity.capabilities = profile.capabilities }
        if let volumeControlType { chosen.volumeControlType = volumeControlType }
        if let volumeStepInterval { chosen.volumeStepInterval = volumeStepInterval }
        self.identity = identity
        self.profile = chosen
        self.applications = applications
        self.idleScreenAppID = chosen.hasIdleScreen ? idleScreenAppID : nil
        self.volume = volume
        self.bufferingDelay = bufferingDelay
        self.defaultMediaDuration = defaultMediaDuration
        self.statusInterval = statusInterval
        self.defaultBreakClipDuration = defaultBreakClipDuration
        self.unloadableContentMarkers = unloadableContentMarkers
        self.pingInterval = pingInterval
        self.livenessTimeout = livenessTimeout
        self.deviceAuthentication = deviceAuthentication
        self.maximumQueueItems = maximumQueueItems
        self.maximumVirtualConnectionsPerConnection = maximumVirtualConnectionsPerConnection
        self.randomSeed = randomSeed
    }

    /// The registry entry for `appId`, if any.
    public func application(withID appID: String) -> ReceiverAppDefinition? {
        applications.first { $0.appID == appID }
    }
}
