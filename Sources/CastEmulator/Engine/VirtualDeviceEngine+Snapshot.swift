import CastCore
public import CastTime

extension VirtualDeviceEngine {
    /// The sender id a restored LOAD comes from: no connection has it, so nothing is sent
    /// back for it.
    static let restoringSenderID = "sender-restore"

    /// What the device would keep of its running app at `now`; `nil` while the idle screen
    /// (or nothing) runs.
    public func snapshot(at now: DeviceInstant) -> VirtualDeviceSnapshot? {
        guard let running = application, !running.definition.isIdleScreen else { return nil }
        var snapshot = VirtualDeviceSnapshot(
            appID: running.definition.appID,
            sessionID: running.sessionID,
            transportID: running.transportID
        )
        snapshot.deviceVolume = deviceVolume
        guard let player = running.player, let session = player.session, let queue = session.queue,
            let status = player.status(at: max(now, clock))
        else { return snapshot }
        guard status.playerState != .idle else { return snapshot }
        snapshot.items = queue.items
        snapshot.currentIndex = queue.currentIndex
        snapshot.position = status.currentTime
        snapshot.isPlaying = status.playerState == .playing || status.playerState == .buffering
        snapshot.repeatMode = queue.repeatMode
        snapshot.activeTrackIDs = status.activeTrackIDs
        snapshot.playbackRate = status.playbackRate
        return snapshot
    }

    /// Starts the app of `snapshot` again under its old session and transport ids, and loads
    /// its queue at the saved item and position (playing or paused as it was); any running app
    /// stops first. An app the configuration does not have is not restored.
    public mutating func restore(_ snapshot: VirtualDeviceSnapshot, at now: DeviceInstant) -> [DeviceAction] {
        var actions = tick(at: now)
        guard let definition = configuration.application(withID: snapshot.appID) else {
            actions.append(
                .log(
                    DeviceLogEntry(
                        level: .warning,
                        message: "snapshot app unknown",
                        metadata: ["cast.app-id": snapshot.appID]
                    )
                )
            )
            return actions
        }
        if let volume = snapshot.deviceVolume {
            if let level = volume.level, level.isFinite, configuration.volumeControlType != .fixed {
                deviceVolume.level = min(max(level, 0), 1)
            }
            if let muted = volume.muted { deviceVolume.muted = muted }
        }
        actions += stopApplication()
        startApplication(definition, appType: .web, launchCredentials: nil)
        application?.sessionID = snapshot.sessionID
        application?.transportID = snapshot.transportID
        actions.append(
            .log(
                DeviceLogEntry(
                    level: .info,
                    message: "application restored",
                    metadata: ["cast.app-id": snapshot.appID, "cast.session-id": snapshot.sessionID]
                )
            )
        )
        if let items = snapshot.items, !items.isEmpty, application?.player != nil {
            let playing = snapshot.isPlaying ?? false
            let start = min(max(snapshot.currentIndex ?? 0, 0), items.count - 1)
            let queueItems = items.map { item -> QueueItem in
                var item = item
                item.itemID = nil
                item.autoplay = playing
                return item
            }
            let position = snapshot.position.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            let load = LoadRequest(
                requestID: 0,
                sessionID: snapshot.sessionID,
                data: LoadRequestData(
                    queueData: QueueData(repeatMode: snapshot.repeatMode ?? .off, items: queueItems, startIndex: start),
                    autoplay: playing,
                    currentTime: position,
                    playbackRate: snapshot.playbackRate,
                    activeTrackIDs: snapshot.activeTrackIDs
                )
            )
            if let text = try? load.jsonString() {
                let restorer = SenderEndpoint(
                    connection: ConnectionID(rawValue: .max),
                    senderID: Self.restoringSenderID
                )
                actions += handleMedia(text, from: restorer)
            }
        }
        return actions + receiverStatusUpdate(requestID: 0, requester: nil) + [.appsChanged, .receiverStatusChanged]
    }
}
