/// The outcome of applying a `Range` header to a representation of known length.
package enum HTTPByteRange: Equatable {
    /// Serve the whole representation (no header, an unusable header, or several ranges).
    case whole
    /// Serve these bytes with 206 Partial Content.
    case partial(ClosedRange<Int>)
    /// Answer 416 Range Not Satisfiable.
    case unsatisfiable

    /// Resolves a `Range` header value (`bytes=0-99`, `bytes=500-`, `bytes=-200`) against
    /// a representation of `length` bytes. Only single byte ranges are served; a header
    /// that cannot be parsed, another unit or several ranges are ignored (RFC 9110 §14.2).
    package static func resolve(_ header: String?, length: Int) -> HTTPByteRange {
        guard let header else { return .whole }
        let trimmed = header.trimmingSpaces()
        guard let equals = trimmed.firstIndex(of: "="),
            trimmed[..<equals].trimmingSpaces().lowercased() == "bytes"
        else { return .whole }
        let spec = trimmed[trimmed.index(after: equals)...].trimmingSpaces()
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash].trimmingSpaces()
        let last = spec[spec.index(after: dash)...].trimmingSpaces()
        func number(_ text: String) -> Int? {
            guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                return nil
            }
            return Int(text)
        }
        if first.isEmpty {
            // Suffix range: the last N bytes.
            guard let suffix = number(last) else { return .whole }
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            return .partial(max(0, length - suffix)...(length - 1))
        }
        guard let start = number(first) else { return .whole }
        var end = length - 1
        if !last.isEmpty {
            guard let value = number(last), value >= start else { return .whole }
            end = min(value, length - 1)
        }
        guard start < length else { return .unsatisfiable }
        return .partial(start...end)
    }
}
