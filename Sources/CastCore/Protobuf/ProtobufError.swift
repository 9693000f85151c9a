/// An error found while decoding a protobuf message.
///
/// The error names the message being decoded, the field concerned (when one is) and the
/// byte offset in the outermost input where the problem was found, so a malformed message
/// from a peer can be diagnosed from the description alone. Two errors are equal when
/// their codes are equal; the context takes no part in `==`.
public struct ProtobufError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable identifiers for each kind of decoding error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case truncatedVarint = 1
            case varintTooLong = 2
            case wrongWireType = 3
            case lengthPastEnd = 4
            case missingRequiredField = 5
            case invalidUTF8 = 6
            case invalidFieldNumber = 7
            case invalidWireType = 8
            case unsupportedGroup = 9
            case truncatedFixedWidth = 10
        }

        fileprivate let base: Base

        /// The input ended inside a varint.
        public static let truncatedVarint = Code(base: .truncatedVarint)
        /// A varint ran over the 10 bytes that a 64-bit value can take.
        public static let varintTooLong = Code(base: .varintTooLong)
        /// A known field arrived with a wire type that its declared type cannot have.
        public static let wrongWireType = Code(base: .wrongWireType)
        /// A length-delimited field declared more bytes than the input holds.
        public static let lengthPastEnd = Code(base: .lengthPastEnd)
        /// A field that the message declares `required` was absent.
        public static let missingRequiredField = Code(base: .missingRequiredField)
        /// A `string` field held bytes that are not valid UTF-8.
        public static let invalidUTF8 = Code(base: .invalidUTF8)
        /// A tag carried field number 0 or a number above 2^29 - 1.
        public static let invalidFieldNumber = Code(base: .invalidFieldNumber)
        /// A tag carried wire type 6 or 7, which protobuf does not define.
        public static let invalidWireType = Code(base: .invalidWireType)
        /// A tag carried the deprecated group wire types (3 or 4); groups are rejected.
        public static let unsupportedGroup = Code(base: .unsupportedGroup)
        /// The input ended inside a fixed32 or fixed64 value.
        public static let truncatedFixedWidth = Code(base: .truncatedFixedWidth)

        /// The stable numeric value of the code.
        public var rawValue: Int { base.rawValue }

        public var description: String {
            switch base {
            case .truncatedVarint: "truncatedVarint"
            case .varintTooLong: "varintTooLong"
            case .wrongWireType: "wrongWireType"
            case .lengthPastEnd: "lengthPastEnd"
            case .missingRequiredField: "missingRequiredField"
            case .invalidUTF8: "invalidUTF8"
            case .invalidFieldNumber: "invalidFieldNumber"
            case .invalidWireType: "invalidWireType"
            case .unsupportedGroup: "unsupportedGroup"
            case .truncatedFixedWidth: "truncatedFixedWidth"
            }
        }
    }

    /// What went wrong.
    public let code: Code
    /// The protobuf name of the message being decoded, e.g. `CastMessage`.
    public let messageName: String
    /// The protobuf name of the field concerned, when the field is known to the message.
    public let fieldName: String?
    /// The number of the field concerned, when the error concerns one field.
    public let fieldNumber: Int?
    /// The byte offset in the input where the problem was found. For a missing required
    /// field it is the offset where the message starts.
    public let offset: Int
    /// The wire type found on the wire, for `wrongWireType`, `invalidWireType` and
    /// `unsupportedGroup`.
    public let wireType: Int?

    init(
        code: Code,
        messageName: String,
        fieldName: String? = nil,
        fieldNumber: Int? = nil,
        offset: Int,
        wireType: Int? = nil
    ) {
        self.code = code
        self.messageName = messageName
        self.fieldName = fieldName
        self.fieldNumber = fieldNumber
        self.offset = offset
        self.wireType = wireType
    }

    public static func == (lhs: ProtobufError, rhs: ProtobufError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String {
        var subject = messageName
        if let fieldName {
            subject += ".\(fieldName)"
        }
        if let fieldNumber {
            subject += " (field \(fieldNumber))"
        }
        let wire = wireType.map { String($0) } ?? "?"
        let problem: String
        switch code.base {
        case .truncatedVarint: problem = "input ends inside a varint"
        case .varintTooLong: problem = "varint is longer than 10 bytes"
        case .wrongWireType: problem = "unexpected wire type \(wire) for the field's declared type"
        case .lengthPastEnd: problem = "declared length runs past the end of the input"
        case .missingRequiredField: problem = "required field is missing"
        case .invalidUTF8: problem = "string field is not valid UTF-8"
        case .invalidFieldNumber: problem = "invalid field number (must be 1...536870911)"
        case .invalidWireType: problem = "invalid wire type \(wire)"
        case .unsupportedGroup: problem = "group wire type \(wire) is not supported"
        case .truncatedFixedWidth: problem = "input ends inside a fixed-width value"
        }
        return "\(subject) at byte offset \(offset): \(problem)"
    }
}
