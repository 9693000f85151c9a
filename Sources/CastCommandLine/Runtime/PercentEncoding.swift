/// Percent-encoding of the parts of a URL the command line builds (RFC 3986), in a few lines
/// instead of Foundation's `CharacterSet`, which `FoundationEssentials` does not have.
enum PercentEncoding {
    /// The bytes a path keeps as they are: the unreserved characters (`A–Z a–z 0–9 - . _ ~`),
    /// the sub-delimiters but `;`, and `/ : @`. That is Foundation's `urlPathAllowed`
    /// without `;`: a receiver must not read a media server's file name as a path parameter,
    /// a query or a fragment.
    static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "-._~!$&'()*+,/:=@".utf8.contains(byte)
        }
    }

    /// `text` with every UTF-8 byte outside ``isPathByte(_:)`` written as `%XX` (upper-case hex).
    static func encodingPath(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isPathByte(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` with each `%XX` replaced by its byte, or nil when a `%` is not followed by two
    /// hex digits or the bytes are not UTF-8 (as Foundation's `removingPercentEncoding`).
    static func decoding(_ text: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
