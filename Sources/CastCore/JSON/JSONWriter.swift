/// Writes compact JSON text (no insignificant whitespace) as UTF-8 bytes.
///
/// Strings escape only what RFC 8259 requires (quote, backslash, control characters).
/// Doubles are written in their shortest round-trip form and always with a fraction or an
/// exponent, so that they read back as doubles; non-finite doubles are written as `null`
/// (encoders reject them before they get here).
///
/// `package` only as the type of ``CastJSONMessage``'s encoding requirement; its members are
/// internal.
package struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the next member or element needs a separating comma.
    var needsComma = false

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Writes `value`, with object members sorted by name so that the output is deterministic.
    mutating func write(_ value: JSONValue) {
        switch value {
        case .null: writeNull()
        case .bool(let value): write(value)
        case .integer(let value): write(value)
        case .double(let value): write(value)
        case .string(let value): write(value)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(key)
                bytes.append(UInt8(ascii: ":"))
                write(members[key]!)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    mutating func writeNull() {
        bytes.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
    }

    mutating func write(_ value: Bool) {
        if value {
            bytes.append(contentsOf: [UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e")])
        } else {
            bytes.append(contentsOf: [
                UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "e"),
            ])
        }
    }

    mutating func write(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func write(_ value: UInt64) {
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func write(_ value: Double) {
        guard value.isFinite else {
            writeNull()
            return
        }
        // `description` is the shortest representation that reads back exactly, e.g. "1.0",
        // "0.25", "1e-07" or "1e+16": always valid JSON and always read back as a double.
        bytes.append(contentsOf: value.description.utf8)
    }

    mutating func write(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                appendEscape(byte)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(_ byte: UInt8) {
        let escaped: UInt8
        switch byte {
        case UInt8(ascii: "\""): escaped = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): escaped = UInt8(ascii: "\\")
        case 0x0A: escaped = UInt8(ascii: "n")
        case 0x0D: escaped = UInt8(ascii: "r")
        case 0x09: escaped = UInt8(ascii: "t")
        case 0x08: escaped = UInt8(ascii: "b")
        case 0x0C: escaped = UInt8(ascii: "f")
        default:
            let hex: StaticString = "0123456789abcdef"
            let digits = hex.utf8Start
            bytes.append(contentsOf: [
                UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                digits[Int(byte >> 4)], digits[Int(byte & 0xF)],
            ])
            return
        }
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(escaped)
    }

    mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    mutating func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: buffer)
    }
}
