/// Why the virtual device could not read the media it was asked to play.
///
/// Each code maps to the `detailedErrorCode` a Cast receiver reports in its `LOAD_FAILED`
/// error message (``detailedErrorName``).
struct MediaProbeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable reason.
    struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Raw: String, Sendable {
            case truncated
            case malformed
            case tooLarge
            case noMovie
            case notSupported
        }
        fileprivate let raw: Raw

        /// The bytes ended inside a structure that should have been complete.
        static let truncated = Code(raw: .truncated)
        /// A structure breaks the format's rules (a size out of bounds, a zero timescale, …).
        static let malformed = Code(raw: .malformed)
        /// A structure is larger than the device reads.
        static let tooLarge = Code(raw: .tooLarge)
        /// An MP4 file holds no `moov` box.
        static let noMovie = Code(raw: .noMovie)
        /// The bytes are not a format a Cast receiver plays.
        static let notSupported = Code(raw: .notSupported)

        var description: String { raw.rawValue }
    }

    /// The stable reason.
    let code: Code
    /// What was being read, for logs.
    let context: String

    /// The `detailedErrorCode` name a receiver reports for this failure.
    var detailedErrorName: String {
        switch code.raw {
        case .notSupported: "MEDIA_SRC_NOT_SUPPORTED"
        case .truncated, .malformed, .tooLarge, .noMovie: "MEDIA_DECODE"
        }
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    var description: String { "media probe failed (\(code)): \(context)" }
}
