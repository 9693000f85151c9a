import CastCore

/// Decides, for each message a sender sends, whether the device's lasting faults change
/// what happens to it: swallowed, answered with an error in the engine's place, or passed on.
///
/// A value type with no I/O; ``VirtualDevice`` keeps it under its lock.
struct FaultInjector: Sendable, Equatable {
    /// What to do with one inbound message.
    enum Verdict: Sendable, Equatable {
        /// Hand the message to the engine.
        case pass
        /// Drop the message (a `PING` while pings are ignored).
        case swallow
        /// Send this reply to the sender instead of handing the message to the engine.
        case reply(CastMessage)
    }

    /// The lasting faults in force.
    var faults = DeviceFaults.none

    /// Judges `message`; consumes ``DeviceFaults/failsNextLoad`` when it fires.
    mutating func judge(_ message: CastMessage) -> Verdict {
        guard faults.ignoresPings || faults.refusesLaunch || faults.failsNextLoad else { return .pass }
        guard message.payloadType == .string, let text = message.payloadUTF8,
            let payload = try? JSONValue(parsing: text, maximumDepth: 16),
            let type = payload["type"]?.stringValue
        else { return .pass }
        let requestID = payload["requestId"]?.intValue ?? 0
        switch (message.namespace.rawValue, type) {
        case ("urn:x-cast:com.google.cast.tp.heartbeat", "PING") where faults.ignoresPings:
            return .swallow
        case ("urn:x-cast:com.google.cast.receiver", "LAUNCH") where faults.refusesLaunch:
            let reply: JSONValue = ["type": "LAUNCH_ERROR", "requestId": .integer(requestID), "reason": "NOT_ALLOWED"]
            return .reply(Self.reply(to: message, payload: reply))
        case ("urn:x-cast:com.google.cast.media", "LOAD") where faults.failsNextLoad:
            faults.failsNextLoad = false
            let reply: JSONValue = [
                "type": "LOAD_FAILED", "requestId": .integer(requestID), "detailedErrorCode": 905,
                "reason": "LOAD_FAILED",
            ]
            return .reply(Self.reply(to: message, payload: reply))
        default:
            return .pass
        }
    }

    /// A reply from the message's destination back to its source.
    static func reply(to message: CastMessage, payload: JSONValue) -> CastMessage {
        let text = (try? JSONPayloadEncoder().encode(payload)) ?? "{}"
        return CastMessage(
            sourceID: message.destinationID,
            destinationID: message.sourceID,
            namespace: message.namespace,
            text: text
        )
    }
}
