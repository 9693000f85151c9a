/// Why image bytes could not be decoded: what was wrong, with the detail of where.
public struct ImageDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    fileprivate enum Code: Int, Sendable {
        case unsupported = 1
        case corruptData = 2
        case tooLarge = 3
    }

    /// A stable code for one kind of problem.
    public struct Kind: Hashable, Sendable {
        fileprivate let code: Code

        /// A format or feature the decoder does not read (JPEG, a PNG preset dictionary, …).
        public static let unsupported = Kind(code: .unsupported)
        /// The bytes break the format (bad signature, checksum, chunk, compressed data, …).
        public static let corruptData = Kind(code: .corruptData)
        /// The image is larger than the decoder's limits.
        public static let tooLarge = Kind(code: .tooLarge)

        /// The stable number of the code.
        public var rawValue: Int { code.rawValue }
    }

    /// What went wrong.
    public let kind: Kind
    /// Details: which chunk, field or limit.
    public let detail: String

    /// Creates an error.
    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    static func tooLarge(_ limit: Int) -> ImageDecodingError {
        ImageDecodingError(.tooLarge, "decompressed data exceeds \(limit) bytes")
    }

    public var description: String { "cannot decode the image: \(detail)" }
}
