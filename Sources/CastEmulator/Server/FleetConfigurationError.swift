/// A fleet description (the emulator's `--config` file or options) that cannot be used.
public struct FleetConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable identifiers for each kind of error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case invalidJSON = 1
            case invalidValue = 2
            case missingValue = 3
            case unknownMember = 4
            case addressesExhausted = 5
        }

        fileprivate let base: Base

        /// The file is not JSON.
        public static let invalidJSON = Code(base: .invalidJSON)
        /// A member has the wrong type or an unusable value.
        public static let invalidValue = Code(base: .invalidValue)
        /// A required member is absent.
        public static let missingValue = Code(base: .missingValue)
        /// A member name is not part of the format (likely a typo).
        public static let unknownMember = Code(base: .unknownMember)
        /// Not enough IPv4 addresses follow the first one for every device.
        public static let addressesExhausted = Code(base: .addressesExhausted)

        /// The stable numeric value of the code.
        public var rawValue: Int { base.rawValue }

        public var description: String {
            switch base {
            case .invalidJSON: "invalidJSON"
            case .invalidValue: "invalidValue"
            case .missingValue: "missingValue"
            case .unknownMember: "unknownMember"
            case .addressesExhausted: "addressesExhausted"
            }
        }
    }

    /// What went wrong.
    public let code: Code
    /// Where: a JSON path such as `devices[2].address`, or an option name.
    public let path: String
    /// Why, for people.
    public let detail: String

    init(code: Code, path: String, detail: String) {
        self.code = code
        self.path = path
        self.detail = detail
    }

    public static func == (lhs: FleetConfigurationError, rhs: FleetConfigurationError) -> Bool {
        lhs.code == rhs.code && lhs.path == rhs.path
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(path)
    }

    public var description: String { path.isEmpty ? detail : "\(path): \(detail)" }
}
