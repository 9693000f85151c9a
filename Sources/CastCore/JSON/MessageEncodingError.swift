/// Why a value could not be encoded as JSON, and where.
public struct MessageEncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable identifiers for each kind of encoding error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case invalidValue = 1
        }

        fileprivate let base: Base

        /// A value has no JSON representation, such as a NaN or infinite number.
        public static let invalidValue = Code(base: .invalidValue)

        /// The stable numeric value of the code.
        public var rawValue: Int { base.rawValue }

        public var description: String {
            switch base {
            case .invalidValue: "invalidValue"
            }
        }
    }

    /// What went wrong.
    public let code: Code
    /// The JSON path of the offending value, e.g. `media.duration`; empty for the whole value.
    public let path: String
    /// A human-readable explanation; not part of equality.
    public let detail: String

    /// Creates an error.
    public init(code: Code, path: String = "", detail: String = "") {
        self.code = code
        self.path = path
        self.detail = detail
    }

    public static func == (lhs: MessageEncodingError, rhs: MessageEncodingError) -> Bool {
        lhs.code == rhs.code && lhs.path == rhs.path
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(path)
    }

    public var description: String {
        let location = path.isEmpty ? "value" : "'\(path)'"
        return "cannot encode \(location) as JSON" + (detail.isEmpty ? "" : ": \(detail)")
    }
}
