/// A type that decodes itself straight from a parsed document, without `Codable`'s
/// existential containers.
///
/// The message and media types conform in addition to `Decodable`; both paths accept the same
/// JSON and produce the same values. ``JSONPayloadDecoder`` and the per-namespace message
/// enums take this path whenever the type offers it.
protocol TokenDecodable {
    /// Decodes the value at token `index` of `document`.
    init(token index: Int, in document: JSONDocument) throws
}

// MARK: - Primitives

extension Bool: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        self = try document.bool(at: index)
    }
}

extension String: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        self = try document.checkedString(at: index)
    }
}

extension Double: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        self = try document.double(at: index)
    }
}

extension Int: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        self = try document.integer(Int.self, at: index)
    }
}

extension JSONValue: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        self = document.value(at: index)
    }
}

extension Array: TokenDecodable where Element: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        let token = document.tokens[index]
        guard token.kind == .array else { throw document.wrongType("an array", at: index) }
        self.init()
        reserveCapacity(token.count)
        var element = index + 1
        for _ in 0..<token.count {
            append(try Element(token: element, in: document))
            element = document.next(after: element)
        }
    }
}

extension Dictionary: TokenDecodable where Key == String, Value: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        let token = document.tokens[index]
        guard token.kind == .object else { throw document.wrongType("an object", at: index) }
        self.init(minimumCapacity: token.count)
        var name = index + 1
        for _ in 0..<token.count {
            self[document.string(at: name)] = try Value(token: name + 1, in: document)
            name = document.next(after: name + 1)
        }
    }
}

/// Wire identifiers decode from their raw value.
extension TokenDecodable where Self: RawRepresentable, RawValue: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        let raw = try RawValue(token: index, in: document)
        guard let value = Self(rawValue: raw) else {
            throw document.invalidValue("\(raw) is not a valid value", at: index)
        }
        self = value
    }
}

// MARK: - Objects

/// Reads the members of one object by name, for ``TokenDecodable`` conformances.
///
/// Lookups start after the previous match, so reading members in the order devices send
/// them costs one comparison each.
struct TokenObject {
    let document: JSONDocument
    let object: Int
    private let memberCount: Int
    /// The member-name token to try first, and its position among the members.
    private var cursor: Int
    private var cursorPosition = 0
    /// One bit per member name, from its length and end bytes, so that most lookups of absent
    /// members are answered without a scan; all ones when a name has escapes.
    private var nameFilter: UInt64 = 0
    /// How many lookups found their member: when every member was found, none is unknown.
    private var matchedCount = 0

    /// Opens the object at token `index`; throws when the value there is not an object.
    init(_ index: Int, _ document: JSONDocument) throws(MessageDecodingError) {
        let token = document.tokens[index]
        guard token.kind == .object else { throw document.wrongType("an object", at: index) }
        self.document = document
        self.object = index
        self.memberCount = token.count
        self.cursor = index + 1
        var name = index + 1
        for _ in 0..<token.count {
            let nameToken = document.tokens[name]
            if nameToken.isEscaped {
                nameFilter = .max
                break
            }
            let start = document.bytes.baseAddress! + Int(nameToken.start)
            nameFilter |= TokenObject.filterBit(start, nameToken.count)
            name = document.next(after: name + 1)
        }
    }

    @inline(__always)
    private static func filterBit(_ name: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        let ends = count == 0 ? 0 : Int(name[0]) &* 7 &+ Int(name[count - 1])
        return 1 &<< UInt64((count &* 31 &+ ends) & 63)
    }

    /// The member-name token index of `name`, if the object has it.
    @inline(__always)
    mutating func find(_ name: StaticString) -> Int? {
        guard nameFilter & TokenObject.filterBit(name.utf8Start, name.utf8CodeUnitCount) != 0 else { return nil }
        var index = cursor
        var position = cursorPosition
        for _ in 0..<memberCount {
            if position == memberCount {
                index = object + 1
                position = 0
            }
            let match = document.string(at: index, equals: name)
            let following = document.next(after: index + 1)
            position += 1
            if match {
                cursor = following
                cursorPosition = position
                matchedCount &+= 1
                return index
            }
            index = following
        }
        return nil
    }

    /// Marks the member `name` as read without decoding it (the `type` member, which the
    /// message enums read first), so that it does not count as unknown.
    @inline(__always)
    mutating func skip(_ name: StaticString) {
        _ = find(name)
    }

    /// Decodes the required member `name`; absent or `null` is ``MessageDecodingError/Code/missingField``.
    @inline(__always)
    mutating func decode<T: TokenDecodable>(_ name: StaticString) throws -> T {
        guard let index = find(name), document.tokens[index + 1].kind != .null else {
            throw document.missing(name.description, inObjectAt: object)
        }
        return try T(token: index + 1, in: document)
    }

    /// Decodes the optional member `name`; absent or `null` is `nil`.
    @inline(__always)
    mutating func decodeIfPresent<T: TokenDecodable>(_ name: StaticString) throws -> T? {
        guard let index = find(name), document.tokens[index + 1].kind != .null else { return nil }
        return try T(token: index + 1, in: document)
    }

    /// The members whose names are not in `known`, for types that keep what they do not
    /// model. Call it after decoding the known members, each looked up once: when every
    /// member was found by name, the answer is empty without a scan.
    func unknownMembers(known: Set<String>) -> [String: JSONValue] {
        guard matchedCount < memberCount else { return [:] }
        var unknown: [String: JSONValue] = [:]
        forEachMember { name, value in
            let text = document.string(at: name)
            if !known.contains(text) { unknown[text] = document.value(at: value) }
        }
        return unknown
    }

    /// Calls `body` with the name and value token of every member, in document order.
    func forEachMember(_ body: (_ name: Int, _ value: Int) throws -> Void) rethrows {
        var index = object + 1
        for _ in 0..<memberCount {
            try body(index, index + 1)
            index = document.next(after: index + 1)
        }
    }
}

extension JSONDocument {
    /// Whether the string token at `index` equals `name`.
    @inline(__always)
    func string(at index: Int, equals name: StaticString) -> Bool {
        let token = tokens[index]
        guard !token.isEscaped else { return string(at: index) == name.description }
        guard token.count == name.utf8CodeUnitCount else { return false }
        return memoryEquals(name.utf8Start, bytes.baseAddress! + Int(token.start), token.count)
    }
}
