import CastCore

/// A value the command line prints in its `--json` output.
///
/// Lets a command build its output object from optional fields without spelling out
/// `map { .string($0) } ?? .null` for each: an absent value prints as `null`.
protocol JSONOutputValue {
    /// The value as JSON.
    var jsonValue: JSONValue { get }
}

extension String: JSONOutputValue {
    var jsonValue: JSONValue { .string(self) }
}

extension Int: JSONOutputValue {
    var jsonValue: JSONValue { .integer(self) }
}

extension Double: JSONOutputValue {
    /// A whole number prints without a fraction (`600`, not `600.0`), as the documented shapes
    /// show; a non-finite double, which JSON cannot hold, prints as `null`.
    var jsonValue: JSONValue {
        guard isFinite else { return .null }
        return Int(exactly: self).map(JSONValue.integer) ?? .double(self)
    }
}

extension Bool: JSONOutputValue {
    var jsonValue: JSONValue { .bool(self) }
}

extension Optional: JSONOutputValue where Wrapped: JSONOutputValue {
    var jsonValue: JSONValue { map(\.jsonValue) ?? .null }
}

extension Array: JSONOutputValue where Element: JSONOutputValue {
    var jsonValue: JSONValue { .array(map(\.jsonValue)) }
}
