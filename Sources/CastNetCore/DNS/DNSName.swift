/// A domain name: a list of labels, compared without regard to ASCII case.
package struct DNSName: Hashable, Sendable, CustomStringConvertible {
    /// The largest label, in bytes.
    package static let maximumLabelLength = 63
    /// The largest name in wire form (length bytes, labels and the final zero).
    package static let maximumWireLength = 255

    /// The labels, most specific first, without the empty root label.
    package let labels: [[UInt8]]
    /// The labels with ASCII letters lowercased, the canonical form for comparing and hashing.
    package let canonicalLabels: [[UInt8]]

    /// The root name.
    package static let root = DNSName(uncheckedLabels: [])

    /// Creates a name from labels, checking the limits of RFC 1035.
    /// - Throws: ``DNSError`` `emptyLabel`, `labelTooLong` or `nameTooLong`.
    package init(labels: [[UInt8]]) throws(DNSError) {
        var length = 1
        for (index, label) in labels.enumerated() {
            guard !label.isEmpty else { throw DNSError(.emptyLabel, offset: index, field: "name label") }
            guard label.count <= Self.maximumLabelLength else {
                throw DNSError(.labelTooLong, offset: index, field: "name label")
            }
            length += label.count + 1
        }
        guard length <= Self.maximumWireLength else { throw DNSError(.nameTooLong, offset: 0, field: "name") }
        self.init(uncheckedLabels: labels)
    }

    /// Creates a name from text labels.
    package init(labels: [String]) throws(DNSError) {
        try self.init(labels: labels.map { Array($0.utf8) })
    }

    /// Parses dotted text such as `_googlecast._tcp.local`; `\.` and `\\` escape a dot or
    /// a backslash inside a label, and a final dot is ignored.
    package init(_ text: String) throws(DNSError) {
        var labels: [[UInt8]] = []
        var current: [UInt8] = []
        var escaped = false
        for byte in text.utf8 {
            if escaped {
                current.append(byte)
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: ".") {
                labels.append(current)
                current = []
            } else {
                current.append(byte)
            }
        }
        if !current.isEmpty || labels.isEmpty && !text.isEmpty { labels.append(current) }
        if text == "." { labels = [] }
        try self.init(labels: labels)
    }

    init(uncheckedLabels labels: [[UInt8]]) {
        self.labels = labels
        canonicalLabels = labels.map(Self.lowercased)
    }

    /// The number of bytes the name takes on the wire without compression.
    package var wireLength: Int { labels.reduce(1) { $0 + $1.count + 1 } }

    /// The name with `label` put in front.
    package func prepending(_ label: String) throws(DNSError) -> DNSName {
        try DNSName(labels: [Array(label.utf8)] + labels)
    }

    /// Whether the name ends with the labels of `suffix` (or equals it).
    package func hasSuffix(_ suffix: DNSName) -> Bool {
        guard suffix.labels.count <= labels.count else { return false }
        return canonicalLabels.suffix(suffix.labels.count).elementsEqual(suffix.canonicalLabels)
    }

    /// The name without its first label.
    package var parent: DNSName { DNSName(uncheckedLabels: Array(labels.dropFirst())) }

    /// The first label as text.
    package var firstLabel: String { labels.first.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    package static func == (lhs: DNSName, rhs: DNSName) -> Bool {
        lhs.canonicalLabels == rhs.canonicalLabels
    }

    package func hash(into hasher: inout Hasher) {
        // Each label as one run of bytes: hashing `[[UInt8]]` element by element made name
        // lookups the largest cost of browsing a thousand devices.
        for label in canonicalLabels {
            hasher.combine(label.count)
            label.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    package var description: String {
        guard !labels.isEmpty else { return "." }
        return labels.map { label in
            var text = ""
            for scalar in String(decoding: label, as: UTF8.self).unicodeScalars {
                if scalar == "." || scalar == "\\" { text.append("\\") }
                text.unicodeScalars.append(scalar)
            }
            return text
        }.joined(separator: ".")
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    static func lowercased(_ label: [UInt8]) -> [UInt8] {
        label.contains { (0x41...0x5A).contains($0) } ? label.map(lowercased) : label
    }
}
