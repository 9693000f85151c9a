package import CastCore

/// The JSON side of a hostile device: the virtual device's own engine runs behind it (the
/// emulator's `OutgoingRewriteEngine`, reached with `@testable import CastEmulator`), but every
/// JSON payload it sends passes through a ``Rewrite`` first (by `type`), so what a sender reads
/// is out of every range while the exchange stays valid.
package enum HostilePayloads {
    /// Edits one payload the device sends, given its `type`.
    package typealias Rewrite = @Sendable (_ type: String, _ payload: inout JSONValue) -> Void

    /// A message rewrite that applies `rewrite` to every JSON payload with a `type`, and leaves
    /// binary messages and payloads it cannot read as they are.
    package static func messageRewrite(_ rewrite: @escaping Rewrite) -> @Sendable (CastMessage) -> CastMessage {
        { message in
            guard let text = message.payloadUTF8, var payload = try? JSONValue(parsing: text),
                let type = payload["type"]?.stringValue
            else { return message }
            rewrite(type, &payload)
            guard let rewritten = try? JSONPayloadEncoder().encode(payload) else { return message }
            return CastMessage(
                sourceID: message.sourceID,
                destinationID: message.destinationID,
                namespace: message.namespace,
                text: rewritten
            )
        }
    }
}

extension JSONValue {
    /// Applies `edit` to every element of the array member `key` (a status list).
    package mutating func editEach(_ key: String, _ edit: (inout JSONValue) -> Void) {
        guard var elements = self[key]?.arrayValue else { return }
        for index in elements.indices { edit(&elements[index]) }
        self[key] = .array(elements)
    }
}
