/// A DNS message (RFC 1035 §4.1) as mDNS uses it.
package struct DNSMessage: Hashable, Sendable {
    /// The query identifier; 0 in mDNS except for legacy unicast replies.
    package var id: UInt16
    /// The header flags word (QR, opcode, AA, TC, RD, RA, Z, AD, CD, RCODE).
    package var flags: UInt16
    /// The questions.
    package var questions: [DNSQuestion]
    /// The answer records.
    package var answers: [DNSResourceRecord]
    /// The authority records (proposed records in mDNS probes).
    package var authorities: [DNSResourceRecord]
    /// The additional records.
    package var additionals: [DNSResourceRecord]

    package init(
        id: UInt16 = 0,
        flags: UInt16 = 0,
        questions: [DNSQuestion] = [],
        answers: [DNSResourceRecord] = [],
        authorities: [DNSResourceRecord] = [],
        additionals: [DNSResourceRecord] = []
    ) {
        self.id = id
        self.flags = flags
        self.questions = questions
        self.answers = answers
        self.authorities = authorities
        self.additionals = additionals
    }

    /// The flags of an mDNS response: QR and AA set.
    package static let responseFlags: UInt16 = 0x8400
    /// The truncation flag.
    package static let truncatedFlag: UInt16 = 0x0200

    /// A multicast query.
    package static func query(
        _ questions: [DNSQuestion],
        knownAnswers: [DNSResourceRecord] = [],
        authorities: [DNSResourceRecord] = []
    ) -> DNSMessage {
        DNSMessage(questions: questions, answers: knownAnswers, authorities: authorities)
    }

    /// An mDNS response.
    package static func response(
        id: UInt16 = 0,
        questions: [DNSQuestion] = [],
        answers: [DNSResourceRecord],
        additionals: [DNSResourceRecord] = []
    ) -> DNSMessage {
        DNSMessage(id: id, flags: responseFlags, questions: questions, answers: answers, additionals: additionals)
    }

    /// Whether the message is a response (QR set).
    package var isResponse: Bool { flags & 0x8000 != 0 }
    /// The operation code; mDNS uses only 0 (standard query).
    package var opcode: UInt8 { UInt8((flags >> 11) & 0xF) }
    /// Whether the TC bit is set; in an mDNS query it means more known answers follow.
    package var isTruncated: Bool { flags & Self.truncatedFlag != 0 }
    /// The response code.
    package var responseCode: UInt8 { UInt8(flags & 0xF) }

    /// All records of the answer, authority and additional sections.
    package var allRecords: [DNSResourceRecord] { answers + authorities + additionals }
}
