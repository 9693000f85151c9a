import CastCore

/// Encodes a status message once for all its recipients.
///
/// A status goes to the requester with its request id and to every other sender with 0;
/// encoding is the costly part, so the message is encoded once with request id 0 and the
/// requester's copy is made by rewriting that member, which the encoder writes right after
/// `type`.
struct StatusPayload: Sendable {
    /// The payload with request id 0.
    let broadcast: String
    private let type: CastMessageType

    init(_ message: some CastJSONMessage) {
        self.broadcast = MediaPlayer.encode(message)
        self.type = message.type
    }

    /// A payload already encoded with request id 0.
    init(encoded broadcast: String, type: CastMessageType) {
        self.broadcast = broadcast
        self.type = type
    }

    /// The payload with `requestId` in place of 0.
    func reply(requestID: Int) -> String {
        let prefix = #"{"type":"\#(type.rawValue)","requestId":0,"#
        guard requestID != 0, broadcast.hasPrefix(prefix) else {
            return requestID == 0 ? broadcast : Self.fallback(broadcast, requestID: requestID)
        }
        return #"{"type":"\#(type.rawValue)","requestId":\#(requestID),"# + broadcast.dropFirst(prefix.count)
    }

    /// Rewrites the request id by parsing, for an encoding whose layout is not the expected one.
    private static func fallback(_ text: String, requestID: Int) -> String {
        guard var value = try? JSONValue(parsing: text) else { return text }
        value["requestId"] = .integer(requestID)
        return value.description
    }
}
