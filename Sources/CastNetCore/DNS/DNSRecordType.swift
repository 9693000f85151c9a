/// A DNS resource record type (RFC 1035 §3.2.2 and later RFCs).
package struct DNSRecordType: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// An IPv4 host address.
    package static let a = DNSRecordType(rawValue: 1)
    /// A domain name pointer.
    package static let ptr = DNSRecordType(rawValue: 12)
    /// Text strings.
    package static let txt = DNSRecordType(rawValue: 16)
    /// An IPv6 host address.
    package static let aaaa = DNSRecordType(rawValue: 28)
    /// A service location.
    package static let srv = DNSRecordType(rawValue: 33)
    /// Next secure record; in mDNS, the list of types a name has (RFC 6762 §6.1).
    package static let nsec = DNSRecordType(rawValue: 47)
    /// Any type (questions only).
    package static let any = DNSRecordType(rawValue: 255)

    package static func < (lhs: DNSRecordType, rhs: DNSRecordType) -> Bool { lhs.rawValue < rhs.rawValue }

    package var description: String {
        switch self {
        case .a: "A"
        case .ptr: "PTR"
        case .txt: "TXT"
        case .aaaa: "AAAA"
        case .srv: "SRV"
        case .nsec: "NSEC"
        case .any: "ANY"
        default: "TYPE\(rawValue)"
        }
    }
}

/// A DNS class; mDNS uses only `IN`.
package struct DNSClass: RawRepresentable, Hashable, Sendable {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The Internet class.
    package static let internet = DNSClass(rawValue: 1)
    /// Any class (questions only).
    package static let any = DNSClass(rawValue: 255)
}
