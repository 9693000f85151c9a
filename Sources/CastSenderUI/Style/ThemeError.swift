/// Why a theme file could not be loaded: what was wrong and where (the file, the JSON path
/// of the value, or the byte offset of a syntax error).
public struct ThemeError: Error, Hashable, Sendable, CustomStringConvertible {
    fileprivate enum Code: Int, Sendable {
        case unreadableFile = 1
        case fileTooLarge = 2
        case invalidJSON = 3
        case unknownKey = 4
        case wrongType = 5
        case invalidValue = 6
    }

    /// A stable code for one kind of problem.
    public struct Kind: Hashable, Sendable {
        fileprivate let code: Code

        /// The file could not be read.
        public static let unreadableFile = Kind(code: .unreadableFile)
        /// The file is larger than the limit.
        public static let fileTooLarge = Kind(code: .fileTooLarge)
        /// The text is not JSON.
        public static let invalidJSON = Kind(code: .invalidJSON)
        /// A key names no node, attribute or button.
        public static let unknownKey = Kind(code: .unknownKey)
        /// A value has the wrong JSON type.
        public static let wrongType = Kind(code: .wrongType)
        /// A value has the right type but is not allowed (a malformed colour, a negative size).
        public static let invalidValue = Kind(code: .invalidValue)

        /// The stable number of the code.
        public var rawValue: Int { code.rawValue }
    }

    /// What went wrong.
    public let kind: Kind
    /// The JSON path of the value, e.g. `castViews.mediaControl.iconTintColor`; empty for the file.
    public let path: String
    /// For ``Kind/invalidJSON``, the byte offset of the problem.
    public let byteOffset: Int?
    /// What was found and what was expected.
    public let detail: String

    init(_ kind: Kind, path: String = "", byteOffset: Int? = nil, _ detail: String) {
        self.kind = kind
        self.path = path
        self.byteOffset = byteOffset
        self.detail = detail
    }

    /// Errors are equal when kind, path and offset are; the detail text is not compared.
    public static func == (lhs: ThemeError, rhs: ThemeError) -> Bool {
        lhs.kind == rhs.kind && lhs.path == rhs.path && lhs.byteOffset == rhs.byteOffset
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(path)
        hasher.combine(byteOffset)
    }

    public var description: String {
        var location = path.isEmpty ? "theme" : "theme at '\(path)'"
        if let byteOffset { location += " (byte \(byteOffset))" }
        return "\(location): \(detail)"
    }
}
