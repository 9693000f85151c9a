#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An IPv4 address.
public struct IPv4Address: Hashable, Sendable, CustomStringConvertible {
    /// The four bytes of the address, in network order.
    public let bytes: [UInt8]

    /// Creates an address from its four bytes in network order.
    /// - Returns: `nil` unless `bytes` holds exactly four bytes.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 4 else { return nil }
        self.bytes = Array(bytes)
    }

    /// Creates an address from its four dotted-decimal parts.
    public init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        self.bytes = [a, b, c, d]
    }

    /// Parses dotted-decimal text such as `192.0.2.1`.
    /// - Returns: `nil` when the text is not four decimal parts from 0 to 255.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = UInt8(part)
            else { return nil }
            bytes.append(value)
        }
        self.bytes = bytes
    }

    /// The address as a 32-bit integer in host order.
    public var integerValue: UInt32 {
        bytes.reduce(0) { ($0 << 8) | UInt32($1) }
    }

    /// Whether the address is in 127.0.0.0/8.
    public var isLoopback: Bool { bytes[0] == 127 }

    /// Whether the address is in 169.254.0.0/16.
    public var isLinkLocal: Bool { bytes[0] == 169 && bytes[1] == 254 }

    public var description: String { bytes.map(String.init).joined(separator: ".") }
}

/// An IPv6 address.
public struct IPv6Address: Hashable, Sendable, CustomStringConvertible {
    /// The sixteen bytes of the address, in network order.
    public let bytes: [UInt8]

    /// Creates an address from its sixteen bytes in network order.
    /// - Returns: `nil` unless `bytes` holds exactly sixteen bytes.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        self.bytes = Array(bytes)
    }

    /// Parses the text form of RFC 4291 §2.2, such as `fe80::1` or `::ffff:192.0.2.1`.
    /// A zone suffix (`%eth0`) is not accepted.
    /// - Returns: `nil` when the text is not an IPv6 address.
    public init?(_ text: String) {
        guard !text.isEmpty, text.count <= 45 else { return nil }
        var groups: [UInt16] = []
        var tailGroups: [UInt16] = []
        var sawGap = false
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func parse(_ half: String, into result: inout [UInt16], allowIPv4: Bool) -> Bool {
            if half.isEmpty { return true }
            let fields = half.split(separator: ":", omittingEmptySubsequences: false)
            for (index, field) in fields.enumerated() {
                if allowIPv4, index == fields.count - 1, field.contains(".") {
                    guard let v4 = IPv4Address(String(field)) else { return false }
                    result.append(UInt16(v4.bytes[0]) << 8 | UInt16(v4.bytes[1]))
                    result.append(UInt16(v4.bytes[2]) << 8 | UInt16(v4.bytes[3]))
                    continue
                }
                guard (1...4).contains(field.count), let value = UInt16(field, radix: 16) else { return false }
                result.append(value)
            }
            return true
        }
        if halves.count == 2 {
            sawGap = true
            guard parse(halves[0], into: &groups, allowIPv4: false),
                parse(halves[1], into: &tailGroups, allowIPv4: true)
            else { return nil }
            guard groups.count + tailGroups.count <= 7 else { return nil }
        } else {
            guard parse(halves[0], into: &groups, allowIPv4: true), groups.count == 8 else { return nil }
        }
        if sawGap {
            groups += Array(repeating: 0, count: 8 - groups.count - tailGroups.count) + tailGroups
        }
        self.bytes = groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    /// Whether the address is `::1`.
    public var isLoopback: Bool { bytes == Array(repeating: 0, count: 15) + [1] }

    /// Whether the address is in fe80::/10.
    public var isLinkLocal: Bool { bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 }

    /// The RFC 5952 text form: lowercase, the longest run of zero groups shortened to `::`.
    public var description: String {
        let groups = (0..<8).map { UInt16(bytes[2 * $0]) << 8 | UInt16(bytes[2 * $0 + 1]) }
        var bestStart = -1
        var bestLength = 0
        var index = 0
        while index < 8 {
            guard groups[index] == 0 else {
                index += 1
                continue
            }
            let start = index
            while index < 8, groups[index] == 0 { index += 1 }
            if index - start > bestLength {
                bestStart = start
                bestLength = index - start
            }
        }
        let hex = groups.map { String($0, radix: 16) }
        guard bestLength >= 2 else { return hex.joined(separator: ":") }
        let head = hex[..<bestStart].joined(separator: ":")
        let tail = hex[(bestStart + bestLength)...].joined(separator: ":")
        return head + "::" + tail
    }
}

/// An IPv4 or IPv6 address.
public enum IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// An IPv4 address.
    case v4(IPv4Address)
    /// An IPv6 address.
    case v6(IPv6Address)

    /// Parses IPv4 dotted-decimal or IPv6 text.
    /// - Returns: `nil` when the text is neither.
    public init?(_ text: String) {
        if let v4 = IPv4Address(text) {
            self = .v4(v4)
        } else if let v6 = IPv6Address(text) {
            self = .v6(v6)
        } else {
            return nil
        }
    }

    /// Whether the address is a loopback address.
    public var isLoopback: Bool {
        switch self {
        case .v4(let address): address.isLoopback
        case .v6(let address): address.isLoopback
        }
    }

    public var description: String {
        switch self {
        case .v4(let address): address.description
        case .v6(let address): address.description
        }
    }
}
