/// A question of a DNS message.
package struct DNSQuestion: Hashable, Sendable, CustomStringConvertible {
    /// The name asked about.
    package var name: DNSName
    /// The record type asked for.
    package var type: DNSRecordType
    /// The class asked for, without the unicast-response bit.
    package var recordClass: DNSClass
    /// The mDNS unicast-response ("QU") bit: the querier asks for a unicast reply (RFC 6762 §5.4).
    package var unicastResponse: Bool

    package init(
        name: DNSName,
        type: DNSRecordType,
        recordClass: DNSClass = .internet,
        unicastResponse: Bool = false
    ) {
        self.name = name
        self.type = type
        self.recordClass = recordClass
        self.unicastResponse = unicastResponse
    }

    /// Whether a record answers this question (same name, matching type and class).
    package func isAnswered(by record: DNSResourceRecord) -> Bool {
        (type == .any || type == record.type)
            && (recordClass == .any || recordClass == record.recordClass)
            && name == record.name
    }

    package var description: String { "\(name) \(type)\(unicastResponse ? " QU" : "")" }
}
