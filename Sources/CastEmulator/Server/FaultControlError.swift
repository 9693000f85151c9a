/// A fault-injection request that cannot be applied.
public struct FaultControlError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable identifiers for each kind of error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case invalidRequest = 1
        }

        fileprivate let base: Base

        /// The request body is not JSON, or a member is unknown or has a wrong value.
        public static let invalidRequest = Code(base: .invalidRequest)

        /// The stable numeric value of the code.
        public var rawValue: Int { base.rawValue }

        public var description: String {
            switch base {
            case .invalidRequest: "invalidRequest"
            }
        }
    }

    /// What went wrong.
    public let code: Code
    /// Which member and why, for people.
    public let detail: String

    init(code: Code, detail: String) {
        self.code = code
        self.detail = detail
    }

    public static func == (lhs: FaultControlError, rhs: FaultControlError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String { "fault control request \(code): \(detail)" }
}
