import CastCore

extension CastContext {
    /// Hands a volume key to casting, as GCK does for the hardware volume buttons when
    /// ``CastOptions/physicalVolumeButtonsWillControlDeviceVolume`` is set. Front ends call it
    /// for their volume keys; when it returns `nil` the key is theirs (adjust local playback).
    ///
    /// While a session is connected and the option is set:
    /// - on a device whose volume can change, ``VolumeKey/up`` and ``VolumeKey/down`` move
    ///   the device volume by its `stepInterval` (``CastSession/stepDeviceVolume(by:)``) and
    ///   ``VolumeKey/mute`` toggles the device mute;
    /// - on a fixed-volume device, the keys change the stream volume instead when the media
    ///   allows it (`supportedMediaCommands` lists stream volume or stream mute);
    /// - otherwise the key is not handled.
    /// - Returns: the request sent, or `nil` when casting does not take the key.
    @discardableResult
    public func volumeKeyPressed(_ key: VolumeKey) -> CastRequest? {
        guard options.physicalVolumeButtonsWillControlDeviceVolume,
            let session = sessionManager.currentSession, session.connectionState == .connected
        else { return nil }
        let request: CastRequest?
        if let volume = session.deviceVolume, volume.controlType != .fixed {
            switch key {
            case .up: request = session.stepDeviceVolume(by: 1)
            case .down: request = session.stepDeviceVolume(by: -1)
            case .mute: request = session.setDeviceMuted(!(volume.muted ?? false))
            default: request = nil
            }
        } else {
            request = Self.streamVolumeRequest(for: key, client: session.remoteMediaClient, increment: 0.05)
        }
        logger.log(
            .debug,
            .context,
            request == nil ? "volume key not handled" : "volume key handled",
            metadata: ["cast.key": key.rawValue]
        )
        return request
    }

    private static func streamVolumeRequest(
        for key: VolumeKey,
        client: RemoteMediaClient,
        increment: Double
    ) -> CastRequest? {
        guard let status = client.mediaStatus, let commands = status.supportedMediaCommands else { return nil }
        let level = status.volume?.level ?? 1
        switch key {
        case .up where commands.contains(.streamVolume):
            return client.setStreamVolume(CastSession.stepped(level, by: 1, increment: increment))
        case .down where commands.contains(.streamVolume):
            return client.setStreamVolume(CastSession.stepped(level, by: -1, increment: increment))
        case .mute where commands.contains(.streamMute):
            return client.setStreamMuted(!(status.volume?.muted ?? false))
        default:
            return nil
        }
    }
}
