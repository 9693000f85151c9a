import CastCore

/// The multizone namespace (`urn:x-cast:com.google.cast.multizone` on `receiver-0`) of a
/// speaker in no group: like a real speaker it lists itself in `MULTIZONE_STATUS`, belongs
/// to no casting group and takes `SET_DEVICE_VOLUME` for its own device id.
extension VirtualDeviceEngine {
    mutating func handleMultizone(_ text: String, from sender: SenderEndpoint) -> [DeviceAction] {
        guard let request = try? JSONValue(parsing: text), request.objectValue != nil,
            let type = request["type"]?.stringValue
        else {
            return [multizoneLog("malformed multizone request", sender: sender)]
        }
        // A request id that is not a whole number is answered as 0, never trusted.
        let requestId = request["requestId"]?.intValue ?? 0
        switch CastMessageType(rawValue: type) {
        case .getStatus:
            return [
                send(
                    MultizoneStatusMessage(requestId: requestId, status: multizoneStatus),
                    from: Self.platformId,
                    to: sender,
                    namespace: .multizone
                )
            ]
        case .getCastingGroups:
            let reply: JSONValue = [
                "type": .string(CastMessageType.castingGroups.rawValue),
                "requestId": .integer(requestId),
                "status": ["groups": []],
            ]
            return [multizoneSend(reply, to: sender)]
        case .setDeviceVolume:
            return setMemberVolume(request, requestId: requestId, from: sender)
        default:
            return [multizoneLog("unsupported multizone request", sender: sender)]
        }
    }

    /// The device as the only member of its `MULTIZONE_STATUS`, with the keys real speakers send.
    public var multizoneStatus: MultizoneStatus {
        MultizoneStatus(devices: [multizoneDevice], isMultichannel: false)
    }

    private var multizoneDevice: MultizoneDevice {
        let identity = configuration.identity
        let level = deviceVolume.level.map { DeviceProfile.float32($0) }
        return MultizoneDevice(
            deviceId: identity.udn ?? identity.deviceID,
            name: identity.friendlyName,
            capabilities: identity.capabilities.rawValue,
            volume: Volume(level: level, muted: deviceVolume.muted)
        )
    }

    /// `SET_DEVICE_VOLUME` for this device: `volume.level` must be a finite number in 0...1
    /// and `volume.muted` a Boolean; anything else is refused whole.
    private mutating func setMemberVolume(
        _ request: JSONValue,
        requestId: Int,
        from sender: SenderEndpoint
    ) -> [DeviceAction] {
        let identity = configuration.identity
        guard let deviceId = request["deviceId"]?.stringValue,
            deviceId == identity.udn || deviceId == identity.deviceID
        else {
            return [multizoneLog("SET_DEVICE_VOLUME for an unknown device", sender: sender)]
        }
        guard let volume = request["volume"], volume.objectValue != nil else {
            return [multizoneLog("SET_DEVICE_VOLUME without a volume", sender: sender)]
        }
        let levelValue = volume["level"]
        let mutedValue = volume["muted"]
        let level = levelValue?.doubleValue
        let muted = mutedValue?.boolValue
        let levelValid = levelValue == nil || (level.map { $0.isFinite && (0...1).contains($0) } ?? false)
        let mutedValid = mutedValue == nil || muted != nil
        guard levelValid, mutedValid, level != nil || muted != nil else {
            return [multizoneLog("SET_DEVICE_VOLUME with an invalid volume", sender: sender)]
        }
        guard configuration.volumeControlType != .fixed else {
            return [multizoneLog("volume is fixed: SET_DEVICE_VOLUME ignored", sender: sender)]
        }
        let before = deviceVolume
        if let level { deviceVolume.level = level }
        if let muted { deviceVolume.muted = muted }
        guard deviceVolume != before else { return [] }
        let updated: JSONValue = [
            "type": .string(CastMessageType.deviceUpdated.rawValue),
            "requestId": 0,
            "device": deviceValue,
        ]
        var actions: [DeviceAction] = []
        for id in connections.keys.sorted() {
            for senderId in connections[id]?.senders(connectedTo: Self.platformId) ?? [] {
                actions.append(multizoneSend(updated, to: SenderEndpoint(connection: id, senderId: senderId)))
            }
        }
        return actions + receiverStatusUpdate(requestId: 0, requester: nil) + [.receiverStatusChanged]
    }

    private var deviceValue: JSONValue {
        let device = multizoneDevice
        var volume: [String: JSONValue] = [:]
        if let level = device.volume?.level { volume["level"] = .double(level) }
        if let muted = device.volume?.muted { volume["muted"] = .bool(muted) }
        return [
            "deviceId": .string(device.deviceId),
            "name": .string(device.name ?? ""),
            "capabilities": .integer(device.capabilities ?? 0),
            "volume": .object(volume),
        ]
    }

    private func multizoneSend(_ payload: JSONValue, to sender: SenderEndpoint) -> DeviceAction {
        .send(
            CastMessage(
                sourceID: Self.platformId,
                destinationID: sender.senderId,
                namespace: .multizone,
                text: payload.description
            ),
            to: sender.connection
        )
    }

    private func multizoneLog(_ message: String, sender: SenderEndpoint) -> DeviceAction {
        .log(DeviceLogEntry(level: .warning, message: message, metadata: ["cast.source-id": sender.senderId]))
    }
}
