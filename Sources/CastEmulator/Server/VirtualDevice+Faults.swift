import CastCrypto
import CastSync
import CastTime

extension VirtualDevice {
    /// The behaviour faults in force (ignored pings, refused launches, a failing load).
    public var faults: DeviceFaults {
        get { state.withLock { $0.engine.faults } }
        set { state.withLock { $0.engine.faults = newValue } }
    }

    /// How long every frame the device sends is held back (zero for none). Frames keep their
    /// order on each connection.
    public var replyDelay: Duration {
        get { faultInjector.replyDelay }
        set { faultInjector.replyDelay = newValue }
    }

    /// Applies a control request: lasting faults first, then the one-shot actions.
    public func apply(_ request: FaultControlRequest) {
        state.withLock { state in faultInjector.applyLasting(request, to: &state.engine.faults) }
        if request.activeInput != nil || request.standBy != nil {
            setInputState(activeInput: request.activeInput, standBy: request.standBy)
        }
        if request.restartApp { restartApplication() }
        if request.reboot { reboot() }
        faultInjector.applyOneShot(request)
    }

    /// Closes every sender connection at once; the receiver keeps its apps and media.
    public func dropAllConnections() { faultInjector.dropAllConnections() }

    /// Sends half of a frame on every sender connection, then closes it.
    public func crashConnectionsMidFrame() { faultInjector.crashConnectionsMidFrame() }

    /// Sends every sender a frame whose body is not a `CastMessage`, then nothing more on
    /// that connection; it stays open until the sender closes it.
    public func sendGarbageFrames() { faultInjector.sendGarbageFrames() }

    /// Sends every sender the length prefix of a frame far over the 64 KiB limit
    /// (0x7FFFFFFF bytes), then nothing more on that connection; it stays open until the
    /// sender closes it.
    public func sendOversizeFrameHeaders() { faultInjector.sendOversizeFrameHeaders() }

    /// Writes a `PING` frame to every sender one byte per `interval`, and nothing else on
    /// that connection from then on; the connection stays open until the sender closes it.
    public func trickleFrames(every interval: Duration = .seconds(1)) { faultInjector.trickleFrames(every: interval) }

    /// Reboots the receiver: every connection is dropped and the engine starts afresh (the
    /// lasting faults stay), so apps and media sessions come back with new session IDs.
    public func reboot() {
        let now = clock.now
        var following: String?
        let certificate = listeners.certificate
        let (connections, status) = state.withLock { state -> ([SenderLink], DeviceAdvertisedStatus?) in
            let connections = links.removeAll()
            let faults = state.engine.faults
            let groups = (state.engine as? VirtualDeviceEngine)?.multizone
            following = groups?.follower?.groupID
            state.engine = makeEngine(now)
            state.engine.faults = faults
            // The groups survive the reboot (they are the hub's); the playback does not.
            if var engine = state.engine as? VirtualDeviceEngine, var groups {
                groups.follower = nil
                groups.playing = []
                engine.multizone = groups
                engine.recomputeGroupVolume()
                state.engine = engine
            }
            if let certificate { state.engine.setTLSCertificate(certificate.derBytes) }
            let changed = updateStatus(&state)
            rescheduleTick(&state)
            return (connections, changed)
        }
        for connection in connections {
            log.record(connection.id, event: "fault: device rebooted")
            connection.close(reason: "fault: device rebooted")
        }
        if status != nil { advertiser?.deviceDidUpdate(advertisement) }
        if let following { groupMembership.deliver([.leftGroupPlayback(groupID: following)]) }
    }
}
