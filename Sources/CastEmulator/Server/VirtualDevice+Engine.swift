import CastCore
import CastNet
import CastSync
import CastTime

extension VirtualDevice {
    /// What the device keeps of its running app now (see ``VirtualDeviceSnapshot``); `nil`
    /// while only the idle screen runs.
    public func snapshot() -> VirtualDeviceSnapshot? {
        let now = clock.now
        return state.withLock { $0.engine.snapshot(at: now) }
    }

    /// Starts the app of a snapshot again under its old ids, with its media at the saved
    /// position, as if the device had kept running while its host was stopped.
    public func restore(_ snapshot: VirtualDeviceSnapshot) {
        let now = clock.now
        perform { state in state.engine.restore(snapshot, at: now) }
    }

    /// Sets the HDMI-CEC state (``DeviceInputState``) of a device with an HDMI input, as a TV
    /// switching input or going to standby would; every sender gets the new status. Members
    /// left `nil` keep their value.
    public func setInputState(activeInput: Bool? = nil, standBy: Bool? = nil) {
        let now = clock.now
        perform { state in
            // Without an HDMI input the engine only logs the request.
            let current = state.engine.currentInputState ?? DeviceInputState(isActiveInput: false, isStandBy: false)
            let wanted = DeviceInputState(
                isActiveInput: activeInput ?? current.isActiveInput,
                isStandBy: standBy ?? current.isStandBy
            )
            return state.engine.setInputState(wanted, at: now)
        }
    }

    /// Restarts the running app with new session and transport IDs; its senders get
    /// `CLOSE` and everyone the new `RECEIVER_STATUS`.
    public func restartApplication() {
        let now = clock.now
        perform { state in state.engine.restartApplication(at: now) }
    }

    // MARK: Engine steps

    /// Runs one engine step under the engine's lock and carries out its outputs.
    ///
    /// Frames are queued while the lock is held so that every connection sees the engine's
    /// messages in the order the engine produced them; queuing only schedules the writer
    /// task and runs no other code. The parts the outputs go to (connections, media reads,
    /// screen) take their own locks inside this one, never the other way round.
    func perform(_ step: (inout EngineState) -> [DeviceAction]) {
        let now = clock.now
        var events: [(Int, String)] = []
        var multizoneEvents: [SpeakerGroupEvent] = []
        let delay = faultInjector.replyDelay
        let notBefore = delay > .zero ? now.advanced(by: delay) : nil
        let changed = state.withLock { state -> DeviceAdvertisedStatus? in
            guard !state.stopped else { return nil }
            for action in step(&state) {
                switch action {
                case .send(let message, let id):
                    guard let connection = links.link(Int(id.rawValue)) else { continue }
                    switch connection.send(message, body: message.serializedBytes(), notBefore: notBefore) {
                    case .queued, .closed:
                        break
                    case .tooLarge:
                        // Not expected: statuses are trimmed to a frame and sender ids are
                        // short. Logged rather than sent broken.
                        events.append((connection.id, "engine message over the frame size limit: dropped"))
                    case .full:
                        events.append((connection.id, "send queue full (\(options.sendQueueLimit) bytes): closing"))
                    }
                case .close(let id, let reason):
                    // The engine has forgotten the connection: it expects no connectionClosed.
                    guard let connection = links.remove(Int(id.rawValue)) else { continue }
                    events.append((connection.id, "closing: \(reason)"))
                    connection.closeAfterQueuedFrames(reason: "closed by the device: \(reason)")
                case .log(let entry):
                    let id = entry.metadata["cast.connection"].flatMap { Int($0.filter(\.isNumber)) } ?? 0
                    events.append((id, entry.description))
                case .receiverStatusChanged, .appsChanged:
                    break
                case .probeMedia(let request):
                    mediaReads.enqueue(request)
                case .multizone(let event):
                    multizoneEvents.append(event)
                }
            }
            rescheduleTick(&state)
            events += mediaReads.schedule(
                isPending: { state.engine.isProbePending($0) },
                isFollowing: { state.engine.isFollowingStream($0) },
                report: { [weak self] request, outcome in self?.probed(request, outcome: outcome) }
            ).map { (0, $0) }
            if let screen, screen.hub.hasClients, let engine = state.engine as? VirtualDeviceEngine {
                screen.engineStepped(engine, at: now) { [weak self] in self?.perform { _ in [] } }
            }
            return updateStatus(&state)
        }
        for (id, event) in events { log.record(id, event: event) }
        // Before it listens (a snapshot restored by `start(restoring:)`), the device has not
        // been announced: its first announcement carries the status.
        if changed != nil, listeners.isOpen { advertiser?.deviceDidUpdate(advertisement) }
        groupMembership.deliver(multizoneEvents)
    }

    /// Gives the engine the outcome of a media read, and follows the stream it found open-ended.
    private func probed(_ request: MediaProbeRequest, outcome: Result<MediaProbeResult, MediaLoadFailure>) {
        let now = clock.now
        perform { [mediaReads] state in
            mediaReads.finished(request.id)
            return state.engine.mediaProbed(request.id, outcome: outcome, at: now)
        }
        guard case .success(let result) = outcome, let url = result.followURL else { return }
        state.withLock { state in
            guard !state.stopped, state.engine.isFollowingStream(request.id) else { return }
            mediaReads.follow(
                url,
                probe: request.id,
                isFollowing: { [weak self] in
                    self?.state.withLock { $0.engine.isFollowingStream(request.id) } ?? false
                },
                ended: { [weak self] end in
                    guard let self else { return }
                    let now = self.clock.now
                    self.perform { state in
                        state.engine.mediaStreamEnded(request.id, mediaSeconds: end.mediaSeconds, at: now)
                    }
                }
            )
        }
    }

    private func tick() {
        let now = clock.now
        perform { state in
            state.tickTimer = nil
            state.tickDeadline = nil
            return state.engine.tick(at: now)
        }
    }

    /// The status to advertise, when it changed.
    func updateStatus(_ state: inout EngineState) -> DeviceAdvertisedStatus? {
        let status = DeviceAdvertisedStatus(application: state.engine.runningApplication)
        guard status != state.status else { return nil }
        state.status = status
        return status
    }

    /// Sets one clock timer at the engine's next deadline.
    func rescheduleTick(_ state: inout EngineState) {
        let deadline = state.engine.nextDeadline
        guard deadline != state.tickDeadline else { return }
        state.tickTimer?.cancel()
        state.tickTimer = nil
        state.tickDeadline = deadline
        guard let deadline, !state.stopped else { return }
        let delay = max(.zero, clock.now.duration(to: deadline))
        // Without slack: the periodic statuses of devices sharing a process must not be
        // gathered into bursts that no fleet of real devices would send.
        state.tickTimer = clock.scheduleExactly(after: delay) { [weak self] in self?.tick() }
    }
}
