package import CastCore

/// The data of a resource record, decoded for the types mDNS/DNS-SD use and kept raw otherwise.
package enum DNSRecordData: Hashable, Sendable {
    /// An IPv4 address.
    case a(IPv4Address)
    /// An IPv6 address.
    case aaaa(IPv6Address)
    /// A pointer to another name.
    case ptr(DNSName)
    /// A service location (RFC 2782).
    case srv(priority: UInt16, weight: UInt16, port: UInt16, target: DNSName)
    /// Character-strings of at most 255 bytes each.
    case txt([[UInt8]])
    /// The mDNS form of NSEC: the owner name and the types it has (RFC 6762 §6.1).
    case nsec(next: DNSName, types: [DNSRecordType])
    /// Data of any other type, as received.
    case unknown(type: DNSRecordType, bytes: [UInt8])

    /// The record type this data belongs to.
    package var type: DNSRecordType {
        switch self {
        case .a: .a
        case .aaaa: .aaaa
        case .ptr: .ptr
        case .srv: .srv
        case .txt: .txt
        case .nsec: .nsec
        case .unknown(let type, _): type
        }
    }
}

/// A resource record of a DNS message.
package struct DNSResourceRecord: Hashable, Sendable, CustomStringConvertible {
    /// The owner name.
    package var name: DNSName
    /// The class, without the cache-flush bit.
    package var recordClass: DNSClass
    /// The mDNS cache-flush bit: this record replaces all others of its name and type (RFC 6762 §10.2).
    package var cacheFlush: Bool
    /// The time to live in seconds; 0 in a response is a goodbye.
    package var ttl: UInt32
    /// The data.
    package var data: DNSRecordData

    package init(
        name: DNSName,
        data: DNSRecordData,
        ttl: UInt32,
        cacheFlush: Bool = false,
        recordClass: DNSClass = .internet
    ) {
        self.name = name
        self.data = data
        self.ttl = ttl
        self.cacheFlush = cacheFlush
        self.recordClass = recordClass
    }

    /// The record type.
    package var type: DNSRecordType { data.type }

    /// Whether two records are the same record apart from TTL and cache-flush bit.
    package func isSameRecord(as other: DNSResourceRecord) -> Bool {
        name == other.name && recordClass == other.recordClass && data == other.data
    }

    package var description: String {
        let value: String =
            switch data {
            case .a(let address): address.description
            case .aaaa(let address): address.description
            case .ptr(let target): target.description
            case .srv(let priority, let weight, let port, let target): "\(priority) \(weight) \(port) \(target)"
            case .txt(let strings): strings.map { "\"\(String(decoding: $0, as: UTF8.self))\"" }.joined(separator: " ")
            case .nsec(let next, let types): "\(next) \(types.map(\.description).joined(separator: " "))"
            case .unknown(_, let bytes): "\\# \(bytes.count)"
            }
        return "\(name) \(ttl) \(type)\(cacheFlush ? " flush" : "") \(value)"
    }
}
