/// `DEVICE_ADDED` or `DEVICE_UPDATED` (multizone namespace): a member joined a speaker group,
/// or its name or volume changed. Devices send it by broadcast, with request id 0.
package struct MultizoneDeviceMessage: Sendable, Hashable {
    /// ``CastMessageType/deviceAdded`` or ``CastMessageType/deviceUpdated``.
    package var type: CastMessageType
    /// 0 or absent: the message is a broadcast.
    package var requestID: Int?
    /// The member as it is now.
    package var device: MultizoneDevice
    /// Members this version does not model, as received; written back after the others.
    package var unknownMembers: [String: JSONValue] = [:]

    /// Creates a value.
    package init(
        type: CastMessageType,
        requestID: Int? = nil,
        device: MultizoneDevice,
        unknownMembers: [String: JSONValue] = [:]
    ) {
        self.type = type
        self.requestID = requestID
        self.device = device
        self.unknownMembers = unknownMembers
    }

    static let knownMembers: Set<String> = ["type", "responseType", "requestId", "device"]
}

extension MultizoneDeviceMessage: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        let type: String = try object.decode("type")
        let requestID: Int? = try object.decodeIfPresent("requestId")
        self.init(type: CastMessageType(rawValue: type), requestID: requestID, device: try object.decode("device"))
        unknownMembers = object.unknownMembers(known: Self.knownMembers)
    }
}

extension MultizoneDeviceMessage: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("type", type.rawValue)
        try writer.member("requestId", requestID)
        try writer.member("device", device)
        try writer.unknownMembers(unknownMembers)
    }
}

/// `DEVICE_REMOVED` (multizone namespace): a member left a speaker group or went offline.
package struct MultizoneDeviceRemovedMessage: Sendable, Hashable {
    /// 0 or absent: the message is a broadcast.
    package var requestID: Int?
    /// The member's device id.
    package var deviceID: String
    /// Members this version does not model, as received; written back after the others.
    package var unknownMembers: [String: JSONValue] = [:]

    /// Creates a value.
    package init(requestID: Int? = nil, deviceID: String, unknownMembers: [String: JSONValue] = [:]) {
        self.requestID = requestID
        self.deviceID = deviceID
        self.unknownMembers = unknownMembers
    }

    static let knownMembers: Set<String> = ["type", "responseType", "requestId", "deviceId"]
}

extension MultizoneDeviceRemovedMessage: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        object.skip("type")
        let requestID: Int? = try object.decodeIfPresent("requestId")
        self.init(requestID: requestID, deviceID: try object.decode("deviceId"))
        unknownMembers = object.unknownMembers(known: Self.knownMembers)
    }
}

extension MultizoneDeviceRemovedMessage: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("type", CastMessageType.deviceRemoved.rawValue)
        try writer.member("requestId", requestID)
        try writer.member("deviceId", deviceID)
        try writer.unknownMembers(unknownMembers)
    }
}
