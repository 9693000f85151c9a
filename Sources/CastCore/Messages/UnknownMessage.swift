/// A message whose `type` this version does not model, kept whole.
package struct UnknownMessage: Sendable, Hashable {
    /// The message type, from `type` or `responseType`.
    package var type: CastMessageType
    /// The whole payload.
    package var payload: JSONValue

    /// Creates an unknown message.
    package init(type: CastMessageType, payload: JSONValue) {
        self.type = type
        self.payload = payload
    }

    /// The `requestId` member, if it is an integer.
    package var requestID: Int? { payload["requestId"]?.intValue }
}
