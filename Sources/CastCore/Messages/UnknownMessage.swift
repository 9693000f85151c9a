/// A message whose `type` this version does not model, kept whole.
public struct UnknownMessage: Sendable, Hashable {
    /// The message type, from `type` or `responseType`.
    public var type: CastMessageType
    /// The whole payload.
    public var payload: JSONValue

    /// Creates an unknown message.
    public init(type: CastMessageType, payload: JSONValue) {
        self.type = type
        self.payload = payload
    }

    /// The `requestId` member, if it is an integer.
    public var requestId: Int? { payload["requestId"]?.intValue }
}
