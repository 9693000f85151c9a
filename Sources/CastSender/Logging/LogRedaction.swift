/// Masks secrets in JSON payloads before they are logged.
enum LogRedaction {
    /// Members whose values are never logged in clear.
    static let secretKeys: Set<String> = ["credentials", "atvCredentials", "credentialsData"]

    /// The payload with every secret member's value replaced by `"<redacted>"`; a payload
    /// that does not parse is not shown at all.
    static func redact(_ payload: String) -> String {
        guard let value = try? JSONValue(parsing: payload) else {
            return "<\(payload.utf8.count) bytes, not JSON>"
        }
        let masked = mask(value)
        return (try? JSONPayloadEncoder().encode(masked)) ?? "<unprintable>"
    }

    private static func mask(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            var result: [String: JSONValue] = [:]
            for (key, member) in members {
                result[key] = secretKeys.contains(key) ? .string("<redacted>") : mask(member)
            }
            return .object(result)
        case .array(let elements):
            return .array(elements.map(mask))
        default:
            return value
        }
    }
}
