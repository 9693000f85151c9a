/// An error in the length-prefixed framing of a Cast stream.
///
/// A framing error is fatal for the stream: the bytes that follow can no longer be
/// trusted to start at a frame boundary, so the connection must be closed.
package struct FrameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable identifiers for each kind of framing error.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case emptyFrame = 1
            case frameTooLarge = 2
            case messageTooLarge = 3
        }

        fileprivate let base: Base

        /// A frame declared a body length of zero.
        package static let emptyFrame = Code(base: .emptyFrame)
        /// A frame declared a body length above the limit.
        package static let frameTooLarge = Code(base: .frameTooLarge)
        /// A message to send is larger than the limit.
        package static let messageTooLarge = Code(base: .messageTooLarge)

        /// The stable numeric value of the code.
        package var rawValue: Int { base.rawValue }

        package var description: String {
            switch base {
            case .emptyFrame: "emptyFrame"
            case .frameTooLarge: "frameTooLarge"
            case .messageTooLarge: "messageTooLarge"
            }
        }
    }

    /// What went wrong.
    package let code: Code
    /// The length that was declared or requested.
    package let length: Int
    /// The limit in force.
    package let limit: Int
    /// The byte offset in the stream of the frame header concerned.
    package let streamOffset: Int

    package static func == (lhs: FrameError, rhs: FrameError) -> Bool { lhs.code == rhs.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }

    package var description: String {
        switch code {
        case .emptyFrame:
            "frame at stream offset \(streamOffset) declares an empty body"
        case .frameTooLarge:
            "frame at stream offset \(streamOffset) declares \(length) bytes, over the limit of \(limit)"
        default:
            "message of \(length) bytes is over the limit of \(limit)"
        }
    }
}
