/// Why a JSON payload could not be decoded, and where.
///
/// ``path`` names the JSON location of the problem in a dotted form such as
/// `status[0].media.duration` (empty for the payload as a whole); ``byteOffset`` is set for
/// malformed JSON text.
public struct MessageDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable identifiers for each kind of decoding error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case invalidJSON = 1
            case missingType = 2
            case wrongType = 3
            case missingField = 4
            case invalidValue = 5
        }

        fileprivate let base: Base

        /// The payload is not well-formed JSON (RFC 8259), is not valid UTF-8, or nests too deeply.
        public static let invalidJSON = Code(base: .invalidJSON)
        /// The payload is not an object with a string `type` (or `responseType`) member.
        public static let missingType = Code(base: .missingType)
        /// A value has the wrong JSON type, e.g. a string where a number belongs.
        public static let wrongType = Code(base: .wrongType)
        /// A required member is absent or `null`.
        public static let missingField = Code(base: .missingField)
        /// A value has the right JSON type but is not acceptable, e.g. `1.5` for an integer field.
        public static let invalidValue = Code(base: .invalidValue)

        /// The stable numeric value of the code.
        public var rawValue: Int { base.rawValue }

        public var description: String {
            switch base {
            case .invalidJSON: "invalidJSON"
            case .missingType: "missingType"
            case .wrongType: "wrongType"
            case .missingField: "missingField"
            case .invalidValue: "invalidValue"
            }
        }
    }

    /// What went wrong.
    public let code: Code
    /// The JSON path of the offending value, e.g. `status[0].currentTime`; empty for the whole payload.
    public let path: String
    /// For ``Code/invalidJSON``, the offset of the offending byte in the payload's UTF-8 text.
    public let byteOffset: Int?
    /// A human-readable explanation; not part of equality.
    public let detail: String

    /// Creates an error.
    public init(code: Code, path: String = "", byteOffset: Int? = nil, detail: String = "") {
        self.code = code
        self.path = path
        self.byteOffset = byteOffset
        self.detail = detail
    }

    public static func == (lhs: MessageDecodingError, rhs: MessageDecodingError) -> Bool {
        lhs.code == rhs.code && lhs.path == rhs.path && lhs.byteOffset == rhs.byteOffset
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(path)
        hasher.combine(byteOffset)
    }

    public var description: String {
        let location = path.isEmpty ? "payload" : "'\(path)'"
        let explanation = detail.isEmpty ? "" : ": \(detail)"
        switch code {
        case .invalidJSON:
            return "invalid JSON at byte \(byteOffset ?? 0)\(explanation)"
        case .missingType:
            return "message has no string 'type' member\(explanation)"
        case .wrongType:
            return "wrong JSON type at \(location)\(explanation)"
        case .missingField:
            return "missing required field \(location)\(explanation)"
        default:
            return "invalid value at \(location)\(explanation)"
        }
    }
}
