/// A DNS message that could not be decoded or encoded.
///
/// Decoding never trusts a length, count or pointer from the packet: each one is checked
/// against the bytes that are really there, and the first violation is reported with the
/// byte offset where it was found.
package struct DNSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable identifiers for each kind of DNS error.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case truncated = 1
            case labelTooLong = 2
            case nameTooLong = 3
            case pointerOutOfBounds = 4
            case pointerForward = 5
            case pointerLoop = 6
            case reservedLabelType = 7
            case countTooLarge = 8
            case rdataOverrun = 9
            case rdataMalformed = 10
            case emptyLabel = 11
            case stringTooLong = 12
            case messageTooLarge = 13
        }

        fileprivate let base: Base

        /// The packet ends inside a header, name, question or record.
        package static let truncated = Code(base: .truncated)
        /// A label is longer than 63 bytes.
        package static let labelTooLong = Code(base: .labelTooLong)
        /// A name is longer than 255 bytes in wire form.
        package static let nameTooLong = Code(base: .nameTooLong)
        /// A compression pointer points past the end of the packet.
        package static let pointerOutOfBounds = Code(base: .pointerOutOfBounds)
        /// A compression pointer points at itself or further on.
        package static let pointerForward = Code(base: .pointerForward)
        /// A compression pointer points back into the labels it belongs to, which would loop.
        package static let pointerLoop = Code(base: .pointerLoop)
        /// A label length byte uses the reserved 0x40 or 0x80 form.
        package static let reservedLabelType = Code(base: .reservedLabelType)
        /// A section count is larger than the packet could hold.
        package static let countTooLarge = Code(base: .countTooLarge)
        /// A record's data length runs past the end of the packet.
        package static let rdataOverrun = Code(base: .rdataOverrun)
        /// A record's data does not match its type (wrong size, a name running past the data).
        package static let rdataMalformed = Code(base: .rdataMalformed)
        /// A name to encode has an empty label.
        package static let emptyLabel = Code(base: .emptyLabel)
        /// A character-string to encode is longer than 255 bytes.
        package static let stringTooLong = Code(base: .stringTooLong)
        /// A message to encode is longer than 65535 bytes.
        package static let messageTooLarge = Code(base: .messageTooLarge)

        /// The stable numeric value of the code.
        package var rawValue: Int { base.rawValue }

        package var description: String {
            switch base {
            case .truncated: "truncated"
            case .labelTooLong: "labelTooLong"
            case .nameTooLong: "nameTooLong"
            case .pointerOutOfBounds: "pointerOutOfBounds"
            case .pointerForward: "pointerForward"
            case .pointerLoop: "pointerLoop"
            case .reservedLabelType: "reservedLabelType"
            case .countTooLarge: "countTooLarge"
            case .rdataOverrun: "rdataOverrun"
            case .rdataMalformed: "rdataMalformed"
            case .emptyLabel: "emptyLabel"
            case .stringTooLong: "stringTooLong"
            case .messageTooLarge: "messageTooLarge"
            }
        }
    }

    /// What went wrong.
    package let code: Code
    /// The byte offset in the message where the problem was found.
    package let offset: Int
    /// The part of the message concerned, such as `question name` or `SRV rdata`.
    package let field: String

    package init(_ code: Code, offset: Int, field: String) {
        self.code = code
        self.offset = offset
        self.field = field
    }

    package static func == (lhs: DNSError, rhs: DNSError) -> Bool { lhs.code == rhs.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }

    package var description: String {
        let what =
            switch code {
            case .truncated: "the packet ends early"
            case .labelTooLong: "a label is longer than 63 bytes"
            case .nameTooLong: "a name is longer than 255 bytes"
            case .pointerOutOfBounds: "a compression pointer points past the end of the packet"
            case .pointerForward: "a compression pointer points at itself or forward"
            case .pointerLoop: "a compression pointer loops back into its own name"
            case .reservedLabelType: "a label uses a reserved length form"
            case .countTooLarge: "a section count is larger than the packet can hold"
            case .rdataOverrun: "the record data runs past the end of the packet"
            case .rdataMalformed: "the record data does not match its type"
            case .emptyLabel: "a name has an empty label"
            case .stringTooLong: "a character-string is longer than 255 bytes"
            default: "the message is longer than 65535 bytes"
            }
        return "DNS \(code) in \(field) at byte \(offset): \(what)"
    }
}
