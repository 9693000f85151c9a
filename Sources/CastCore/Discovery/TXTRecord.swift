/// The key/value attributes of a DNS-SD TXT record (RFC 6763 §6).
///
/// On the wire a TXT record is a list of strings of at most 255 bytes each, every string
/// `key=value`, or a bare `key` for a boolean attribute. Keys compare case-insensitively and
/// only the first occurrence of a key counts; empty strings and strings that start with `=`
/// are ignored.
public struct TXTRecord: Hashable, Sendable {
    /// One attribute.
    public struct Entry: Hashable, Sendable {
        /// The key, printable ASCII without `=`.
        public var key: String
        /// The value bytes, or `nil` for a bare boolean key.
        public var value: [UInt8]?

        /// Creates an attribute.
        public init(key: String, value: [UInt8]?) {
            self.key = key
            self.value = value
        }
    }

    /// The attributes in wire order, without duplicates.
    public private(set) var entries: [Entry] = []

    /// Creates an empty record.
    public init() {}

    /// Creates a record from key/value text pairs; later duplicates of a key are dropped.
    public init(_ pairs: KeyValuePairs<String, String>) {
        for (key, value) in pairs { self[key] = value }
    }

    /// Parses the strings of a TXT record as they appear on the wire.
    public init(strings: [[UInt8]]) {
        for string in strings {
            guard let first = string.first, first != UInt8(ascii: "=") else { continue }
            let separator = string.firstIndex(of: UInt8(ascii: "="))
            let keyBytes = string[..<(separator ?? string.endIndex)]
            guard keyBytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { continue }
            let key = String(decoding: keyBytes, as: UTF8.self)
            guard index(of: key) == nil else { continue }
            let value = separator.map { Array(string[string.index(after: $0)...]) }
            entries.append(Entry(key: key, value: value))
        }
    }

    /// The strings to put on the wire, each at most 255 bytes.
    ///
    /// A value that would make its string longer than 255 bytes is cut at the last whole
    /// UTF-8 character that fits.
    public var strings: [[UInt8]] {
        entries.map { entry in
            var string = Array(entry.key.utf8)
            guard var value = entry.value else { return string }
            let room = 255 - string.count - 1
            if value.count > room {
                var cut = max(room, 0)
                while cut > 0, cut < value.count, value[cut] & 0xC0 == 0x80 { cut -= 1 }
                value = Array(value[..<cut])
            }
            string.append(UInt8(ascii: "="))
            string += value
            return string
        }
    }

    /// The value of a key as UTF-8 text (invalid sequences replaced), `""` for a bare key,
    /// `nil` when absent. Setting `nil` removes the key; setting a value replaces it in place.
    public subscript(key: String) -> String? {
        get {
            guard let index = index(of: key) else { return nil }
            return String(decoding: entries[index].value ?? [], as: UTF8.self)
        }
        set {
            setBytes(newValue.map { Array($0.utf8) }, present: newValue != nil, forKey: key)
        }
    }

    /// The raw value of a key: `.some(nil)` for a bare boolean key, `nil` when absent.
    public func bytes(forKey key: String) -> [UInt8]?? {
        index(of: key).map { entries[$0].value }
    }

    /// Whether the key is present, with or without a value.
    public func contains(_ key: String) -> Bool { index(of: key) != nil }

    private mutating func setBytes(_ value: [UInt8]?, present: Bool, forKey key: String) {
        precondition(
            !key.isEmpty && key.utf8.allSatisfy { (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "=") },
            "a TXT key is non-empty printable ASCII without '='"
        )
        if let index = index(of: key) {
            if present {
                entries[index].value = value
            } else {
                entries.remove(at: index)
            }
        } else if present {
            entries.append(Entry(key: key, value: value))
        }
    }

    private func index(of key: String) -> Int? {
        let lowered = key.lowercased()
        return entries.firstIndex { $0.key.lowercased() == lowered }
    }
}
