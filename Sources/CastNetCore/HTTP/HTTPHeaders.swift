/// HTTP header fields in order, looked up without regard to case.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, Equatable {
    private var fields: [(name: String, value: String)] = []

    /// Creates an empty set of headers.
    public init() {}

    /// Creates headers from name and value pairs, in order.
    public init(_ fields: [(String, String)]) {
        for (name, value) in fields { add(name: name, value: value) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// The value of the first field called `name`, or `nil`.
    public subscript(name: String) -> String? {
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every value of the fields called `name`, in order.
    public func values(for name: String) -> [String] {
        let wanted = name.lowercased()
        return fields.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// Appends a field. Line breaks in either part are replaced by spaces, so a value can
    /// never start a new header line.
    public mutating func add(name: String, value: String) {
        fields.append((Self.clean(name), Self.clean(value)))
    }

    /// Replaces every field called `name` with one field.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        add(name: name, value: value)
    }

    /// Removes every field called `name`.
    public mutating func remove(name: String) {
        let wanted = name.lowercased()
        fields.removeAll { $0.name.lowercased() == wanted }
    }

    /// `true` when a field called `name` holds `token` in its comma-separated list.
    public func contains(name: String, token: String) -> Bool {
        values(for: name).contains { value in
            value.split(separator: ",").contains { $0.trimmingSpaces().lowercased() == token.lowercased() }
        }
    }

    public func makeIterator() -> some IteratorProtocol<(name: String, value: String)> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    private static func clean(_ text: String) -> String {
        // Unicode scalars, not characters: CR LF is a single character, equal to neither.
        guard text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else { return text }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.map { $0 == "\r" || $0 == "\n" ? " " : $0 })
        return String(scalars)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        // Unicode scalars, not characters: a space followed by a combining mark is one
        // character, and its space must still go.
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
