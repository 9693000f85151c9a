import CastCore
import CastSync

/// Speaker groups: the members of the group a session is connected to, and their volumes
/// (`urn:x-cast:com.google.cast.multizone` on `receiver-0`).
///
/// ```swift
/// for await event in session.multizoneEvents() {
///     if case .deviceUpdated(let member) = event { print(member.name ?? "", member.volumeLevel ?? 0) }
/// }
/// let kitchen = session.multizoneStatus?.devices.first { $0.name == "Kitchen" }
/// if let kitchen { session.setDeviceVolume(0.3, for: kitchen) }
/// ```
///
/// A session to a group (``CastDevice/isGroup``) asks for `MULTIZONE_STATUS` as it connects;
/// any session can ask with ``requestMultizoneStatus()``. Devices answer the volume requests
/// by broadcast (`DEVICE_UPDATED`, request id 0), so the requests here complete once sent:
/// observe the change through ``multizoneEvents()`` or a ``CastDeviceStatusListener``.
extension CastSession {
    /// The members as last reported (`MULTIZONE_STATUS`, then `DEVICE_*` applied), or `nil`
    /// before the first status.
    public var multizoneStatus: MultizoneStatus? { multizoneState.withLock { $0 } }

    /// A new stream of every later multizone event of this session.
    public func multizoneEvents() -> AsyncStream<MultizoneEvent> { multizoneListeners.stream() }

    /// Adds a listener, held weakly, called on the context's callback queue.
    public func add(_ listener: any CastDeviceStatusListener) { multizoneListeners.add(listener) }

    /// Removes a listener.
    public func remove(_ listener: any CastDeviceStatusListener) { multizoneListeners.remove(listener) }

    /// Asks the device for `MULTIZONE_STATUS` (multizone `GET_STATUS`).
    /// - Returns: a request that completes once sent; it fails with
    ///   ``CastError/Code/deviceNotConnected`` when the session is not connected.
    @discardableResult
    public func requestMultizoneStatus() -> CastRequest {
        sendMultizone("GET_STATUS") { ["type": "GET_STATUS", "requestId": .integer($0)] }
    }

    /// The speaker groups the device said it belongs to (`CASTING_GROUPS`), or `nil` before
    /// it said. A session to a speaker (audio, no video) asks as it connects; any session can
    /// ask with ``requestCastingGroups()``. Discovery learns the answer too: the device's
    /// `CastDevice.groups` in ``DiscoveryManager/devices``.
    public var castingGroups: [CastDevice.GroupReference]? { castingGroupsState.withLock { $0 } }

    /// Asks the device which speaker groups it belongs to (multizone `GET_CASTING_GROUPS`);
    /// the answer arrives as ``MultizoneEvent/castingGroupsReceived(_:)``.
    /// - Returns: a request that completes once sent; it fails with
    ///   ``CastError/Code/deviceNotConnected`` when the session is not connected.
    @discardableResult
    public func requestCastingGroups() -> CastRequest {
        sendMultizone("GET_CASTING_GROUPS") { ["type": "GET_CASTING_GROUPS", "requestId": .integer($0)] }
    }

    /// Sets one member's volume level (multizone `SET_DEVICE_VOLUME`).
    /// - Parameters:
    ///   - level: a finite number in 0...1.
    ///   - device: the member, as ``multizoneStatus`` or an event gave it.
    /// - Returns: a request that completes once sent, or fails at once with
    ///   ``CastError/Code/invalidRequest`` (a level outside 0...1, an empty device id) or
    ///   ``CastError/Code/deviceNotConnected``.
    @discardableResult
    public func setDeviceVolume(_ level: Double, for device: MultizoneDevice) -> CastRequest {
        guard level.isFinite, (0...1).contains(level) else {
            return failedMultizone(
                CastError(.invalidRequest, "setDeviceVolume(_:for:): level \(level) is outside [0, 1]")
            )
        }
        return setMemberVolume(["level": .double(level)], for: device)
    }

    /// Mutes or unmutes one member (multizone `SET_DEVICE_VOLUME`).
    /// - Returns: a request that completes once sent, or fails at once with
    ///   ``CastError/Code/invalidRequest`` (an empty device id) or
    ///   ``CastError/Code/deviceNotConnected``.
    @discardableResult
    public func setDeviceMuted(_ muted: Bool, for device: MultizoneDevice) -> CastRequest {
        setMemberVolume(["muted": .bool(muted)], for: device)
    }

    private func setMemberVolume(_ volume: JSONValue, for device: MultizoneDevice) -> CastRequest {
        guard !device.deviceID.isEmpty else {
            return failedMultizone(CastError(.invalidRequest, "SET_DEVICE_VOLUME: the device has no id"))
        }
        return sendMultizone("SET_DEVICE_VOLUME") {
            [
                "type": "SET_DEVICE_VOLUME", "requestId": .integer($0), "deviceId": .string(device.deviceID),
                "volume": volume,
            ]
        }
    }

    private func failedMultizone(_ error: CastError) -> CastRequest {
        CastRequest.failed("SET_DEVICE_VOLUME", error, callbackQueue: callbackQueue)
    }

    /// Handles one multizone payload from `receiver-0`: decoded, checked, applied to
    /// ``multizoneStatus`` and delivered. A payload that does not decode is logged and dropped.
    func receiveMultizone(_ text: String) {
        let message: MultizoneMessage
        do {
            message = try MultizoneMessage(jsonString: text)
        } catch {
            logger.log(.warning, .session, "malformed multizone message dropped", metadata: ["cast.reason": "\(error)"])
            return
        }
        let event: MultizoneEvent
        switch message {
        case .multizoneStatus(let status):
            let checked = status.status.validated()
            multizoneState.withLock { $0 = checked }
            event = .statusReceived(checked)
        case .deviceAdded(let added):
            let device = added.device.validated()
            guard !device.deviceID.isEmpty else { return }
            upsert(device)
            event = .deviceAdded(device)
        case .deviceUpdated(let updated):
            let device = updated.device.validated()
            guard !device.deviceID.isEmpty else { return }
            upsert(device)
            event = .deviceUpdated(device)
        case .deviceRemoved(let removed):
            multizoneState.withLock { $0?.devices.removeAll { $0.deviceID == removed.deviceID } }
            event = .deviceRemoved(deviceID: removed.deviceID)
        case .unknown(let other) where other.type == .castingGroups:
            let groups = Self.castingGroups(in: other.payload)
            castingGroupsState.withLock { $0 = groups }
            castingGroupsLearned(device, groups)
            event = .castingGroupsReceived(groups)
        case .unknown(let other):
            guard other.type == .playbackSessionUpdated else { return }
            event = .playbackSessionUpdated(other.payload["playbackSession"] ?? .null)
        }
        if device.isGroup, case .statusReceived = event {
            reportMembers()
        } else if device.isGroup, case .deviceAdded = event {
            reportMembers()
        } else if device.isGroup, case .deviceRemoved = event {
            reportMembers()
        }
        multizoneListeners.emit(event) { [weak self] listener, event in
            guard let self else { return }
            switch event {
            case .statusReceived(let status): listener.castSession(self, didReceiveMultizoneStatus: status)
            case .deviceAdded(let device): listener.castSession(self, didAddMultizoneDevice: device)
            case .deviceUpdated(let device): listener.castSession(self, didUpdateMultizoneDevice: device)
            case .deviceRemoved(let id): listener.castSession(self, didRemoveMultizoneDeviceWithID: id)
            case .castingGroupsReceived(let groups): listener.castSession(self, didReceiveCastingGroups: groups)
            case .playbackSessionUpdated: break
            }
        }
    }

    /// Tells discovery the group's members as now known.
    private func reportMembers() {
        let members = (multizoneStatus?.devices ?? []).compactMap {
            CastDevice.GroupReference(deviceID: $0.deviceID, name: $0.name)
        }
        groupMembersLearned(device, members)
    }

    /// The groups of a `CASTING_GROUPS` payload (`status.groups[]`, each with `deviceId` or
    /// `uuid` and `name`); entries without an id that parses are dropped.
    static func castingGroups(in payload: JSONValue) -> [CastDevice.GroupReference] {
        let entries = payload["status"]?["groups"]?.arrayValue ?? payload["groups"]?.arrayValue ?? []
        return CastDevice.GroupReference.unique(
            entries.compactMap { entry in
                guard let id = entry["deviceId"]?.stringValue ?? entry["uuid"]?.stringValue else { return nil }
                return CastDevice.GroupReference(deviceID: id, name: entry["name"]?.stringValue)
            }
        )
    }

    private func upsert(_ device: MultizoneDevice) {
        multizoneState.withLock { status in
            var current = status ?? MultizoneStatus(devices: [])
            if let index = current.devices.firstIndex(where: { $0.deviceID == device.deviceID }) {
                current.devices[index] = device
            } else {
                current.devices.append(device)
            }
            status = current
        }
    }
}
