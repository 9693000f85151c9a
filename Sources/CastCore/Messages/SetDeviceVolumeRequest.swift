/// `SET_VOLUME` on the receiver namespace: changes the device volume.
public struct SetDeviceVolumeRequest: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/setVolume``.
    public var type: CastMessageType { .setVolume }

    /// The request id the reply will echo.
    public var requestId: Int?
    /// The change: either `level` or `muted`.
    public var volume: Volume
    /// The volume the sender believes is current (legacy Android senders).
    public var expectedVolume: Volume?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        volume: Volume,
        expectedVolume: Volume? = nil
    ) {
        self.requestId = requestId
        self.volume = volume
        self.expectedVolume = expectedVolume
    }
}

extension SetDeviceVolumeRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            volume: try object.decode("volume"),
            expectedVolume: try object.decodeIfPresent("expectedVolume")
        )
    }
}

extension SetDeviceVolumeRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("volume", volume)
        try writer.member("expectedVolume", expectedVolume)
    }
}
