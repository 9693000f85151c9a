/// What a speaker group (or a speaker) reports on the multizone namespace, as
/// ``CastSession/multizoneEvents()`` delivers it.
///
/// Volumes are checked where they enter: a level that is not a finite number is dropped,
/// one outside 0...1 is clamped, so every `MultizoneDevice` here holds a usable volume.
public enum MultizoneEvent: Sendable, Hashable {
    /// `MULTIZONE_STATUS`: the members of the group (or the speaker itself), replacing
    /// what was known.
    case statusReceived(MultizoneStatus)
    /// `DEVICE_ADDED`: a member joined.
    case deviceAdded(MultizoneDevice)
    /// `DEVICE_UPDATED`: a member's name or volume changed.
    case deviceUpdated(MultizoneDevice)
    /// `DEVICE_REMOVED`: a member left or went offline.
    case deviceRemoved(deviceID: String)
    /// `PLAYBACK_SESSION_UPDATED`: the group's playback session started, changed (a member
    /// left it) or ended; the payload's `playbackSession` as received (`null` when ended).
    case playbackSessionUpdated(JSONValue)
    /// `CASTING_GROUPS`: the speaker groups the device belongs to (ids and names as the
    /// device gave them; entries without a usable id dropped).
    case castingGroupsReceived([CastDevice.GroupReference])
}

/// Hears the multizone side of a ``CastSession`` (as `GCKCastDeviceStatusListener`); every
/// method has a default that does nothing. Called in order on the context's callback queue.
public protocol CastDeviceStatusListener: AnyObject, Sendable {
    /// A `MULTIZONE_STATUS` arrived.
    func castSession(_ session: CastSession, didReceiveMultizoneStatus status: MultizoneStatus)
    /// A member joined the group.
    func castSession(_ session: CastSession, didAddMultizoneDevice device: MultizoneDevice)
    /// A member's name or volume changed.
    func castSession(_ session: CastSession, didUpdateMultizoneDevice device: MultizoneDevice)
    /// A member left the group or went offline.
    func castSession(_ session: CastSession, didRemoveMultizoneDeviceWithID deviceID: String)
    /// The device said which speaker groups it belongs to (`CASTING_GROUPS`).
    func castSession(_ session: CastSession, didReceiveCastingGroups groups: [CastDevice.GroupReference])
}

extension CastDeviceStatusListener {
    public func castSession(_ session: CastSession, didReceiveMultizoneStatus status: MultizoneStatus) {}
    public func castSession(_ session: CastSession, didAddMultizoneDevice device: MultizoneDevice) {}
    public func castSession(_ session: CastSession, didUpdateMultizoneDevice device: MultizoneDevice) {}
    public func castSession(_ session: CastSession, didRemoveMultizoneDeviceWithID deviceID: String) {}
    public func castSession(_ session: CastSession, didReceiveCastingGroups groups: [CastDevice.GroupReference]) {}
}

extension MultizoneDevice {
    /// The member's volume level (0...1), or `nil` when the device did not say.
    public var volumeLevel: Double? { volume?.level }
    /// Whether the member is muted (`false` when the device did not say).
    public var isMuted: Bool { volume?.muted ?? false }

    /// The device with a usable volume: a level that is not finite dropped, others clamped
    /// to 0...1; a negative capability mask dropped.
    package func validated() -> MultizoneDevice {
        var device = self
        if let level = device.volume?.level {
            device.volume?.level = level.isFinite ? min(max(level, 0), 1) : nil
        }
        if let capabilities = device.capabilities, capabilities < 0 { device.capabilities = nil }
        return device
    }
}

extension MultizoneStatus {
    package func validated() -> MultizoneStatus {
        var status = self
        status.devices = devices.filter { !$0.deviceID.isEmpty }.map { $0.validated() }
        return status
    }
}
