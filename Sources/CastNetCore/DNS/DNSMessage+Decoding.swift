import CastCore

extension DNSMessage {
    /// The size of the fixed header.
    package static let headerSize = 12

    /// Decodes a message.
    ///
    /// Every count, length and compression pointer is checked against the bytes present; a
    /// violation throws. Bytes after the last record are ignored.
    /// - Throws: ``DNSError`` with the offset of the first problem.
    package init(decoding bytes: [UInt8]) throws(DNSError) {
        var reader = DNSReader(bytes: bytes)
        let id = try reader.readUInt16(field: "header")
        let flags = try reader.readUInt16(field: "header")
        let counts = [
            try reader.readUInt16(field: "header"), try reader.readUInt16(field: "header"),
            try reader.readUInt16(field: "header"), try reader.readUInt16(field: "header"),
        ].map(Int.init)
        // A question takes at least 5 bytes (root name, type, class), a record at least 11.
        let minimum = counts[0] * 5 + (counts[1] + counts[2] + counts[3]) * 11
        guard minimum <= bytes.count - Self.headerSize else {
            throw DNSError(.countTooLarge, offset: 4, field: "header counts")
        }
        var questions: [DNSQuestion] = []
        questions.reserveCapacity(counts[0])
        for _ in 0..<counts[0] {
            let name = try reader.readName(field: "question name")
            let type = DNSRecordType(rawValue: try reader.readUInt16(field: "question type"))
            let rawClass = try reader.readUInt16(field: "question class")
            questions.append(
                DNSQuestion(
                    name: name,
                    type: type,
                    recordClass: DNSClass(rawValue: rawClass & 0x7FFF),
                    unicastResponse: rawClass & 0x8000 != 0
                )
            )
        }
        var sections: [[DNSResourceRecord]] = []
        for (index, count) in counts.dropFirst().enumerated() {
            var records: [DNSResourceRecord] = []
            records.reserveCapacity(count)
            for _ in 0..<count {
                records.append(try reader.readRecord(section: ["answer", "authority", "additional"][index]))
            }
            sections.append(records)
        }
        self.init(
            id: id,
            flags: flags,
            questions: questions,
            answers: sections[0],
            authorities: sections[1],
            additionals: sections[2]
        )
    }
}

/// A bounds-checked cursor over a DNS message.
struct DNSReader {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func readUInt8(field: String) throws(DNSError) -> UInt8 {
        guard offset < bytes.count else { throw DNSError(.truncated, offset: offset, field: field) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func readUInt16(field: String) throws(DNSError) -> UInt16 {
        guard offset + 2 <= bytes.count else { throw DNSError(.truncated, offset: offset, field: field) }
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    mutating func readUInt32(field: String) throws(DNSError) -> UInt32 {
        let high = try readUInt16(field: field)
        let low = try readUInt16(field: field)
        return UInt32(high) << 16 | UInt32(low)
    }

    mutating func readBytes(_ count: Int, field: String) throws(DNSError) -> [UInt8] {
        guard count >= 0, offset + count <= bytes.count else {
            throw DNSError(.truncated, offset: offset, field: field)
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Reads a possibly compressed name. A pointer must point before the labels being read,
    /// so every jump goes strictly backwards and reading always ends.
    mutating func readName(field: String) throws(DNSError) -> DNSName {
        var labels: [[UInt8]] = []
        var wireLength = 1
        var position = offset
        var segmentStart = offset
        var resumeOffset: Int?
        while true {
            guard position < bytes.count else { throw DNSError(.truncated, offset: position, field: field) }
            let length = bytes[position]
            switch length & 0xC0 {
            case 0x00:
                if length == 0 {
                    offset = resumeOffset ?? position + 1
                    return DNSName(uncheckedLabels: labels)
                }
                let count = Int(length)
                guard position + 1 + count <= bytes.count else {
                    throw DNSError(.truncated, offset: position, field: field)
                }
                wireLength += count + 1
                guard wireLength <= DNSName.maximumWireLength else {
                    throw DNSError(.nameTooLong, offset: position, field: field)
                }
                labels.append(Array(bytes[position + 1..<position + 1 + count]))
                position += 1 + count
            case 0xC0:
                guard position + 2 <= bytes.count else { throw DNSError(.truncated, offset: position, field: field) }
                let target = Int(length & 0x3F) << 8 | Int(bytes[position + 1])
                guard target < bytes.count else {
                    throw DNSError(.pointerOutOfBounds, offset: position, field: field)
                }
                guard target < position else { throw DNSError(.pointerForward, offset: position, field: field) }
                guard target < segmentStart else { throw DNSError(.pointerLoop, offset: position, field: field) }
                if resumeOffset == nil { resumeOffset = position + 2 }
                position = target
                segmentStart = target
            default:
                // A length byte of 64...127 would be a label over 63 bytes; 0x40 and 0x80 forms are reserved.
                let code: DNSError.Code = length & 0xC0 == 0x40 ? .labelTooLong : .reservedLabelType
                throw DNSError(code, offset: position, field: field)
            }
        }
    }

    mutating func readRecord(section: String) throws(DNSError) -> DNSResourceRecord {
        let name = try readName(field: "\(section) name")
        let type = DNSRecordType(rawValue: try readUInt16(field: "\(section) type"))
        let rawClass = try readUInt16(field: "\(section) class")
        let ttl = try readUInt32(field: "\(section) ttl")
        let rdataOffset = offset
        let length = Int(try readUInt16(field: "\(section) rdlength"))
        let start = offset
        guard start + length <= bytes.count else {
            throw DNSError(.rdataOverrun, offset: rdataOffset, field: "\(type) rdata")
        }
        let end = start + length
        let field = "\(type) rdata"
        let data: DNSRecordData
        switch type {
        case .a:
            guard length == 4, let address = IPv4Address(bytes: bytes[start..<end]) else {
                throw DNSError(.rdataMalformed, offset: start, field: field)
            }
            data = .a(address)
            offset = end
        case .aaaa:
            guard length == 16, let address = IPv6Address(bytes: bytes[start..<end]) else {
                throw DNSError(.rdataMalformed, offset: start, field: field)
            }
            data = .aaaa(address)
            offset = end
        case .ptr:
            data = .ptr(try readName(field: field))
        case .srv:
            guard length >= 7 else { throw DNSError(.rdataMalformed, offset: start, field: field) }
            let priority = try readUInt16(field: field)
            let weight = try readUInt16(field: field)
            let port = try readUInt16(field: field)
            data = .srv(priority: priority, weight: weight, port: port, target: try readName(field: field))
        case .txt:
            var strings: [[UInt8]] = []
            while offset < end {
                let count = Int(bytes[offset])
                guard offset + 1 + count <= end else { throw DNSError(.rdataMalformed, offset: offset, field: field) }
                strings.append(Array(bytes[offset + 1..<offset + 1 + count]))
                offset += 1 + count
            }
            // Empty RDATA is one empty string (RFC 6763 §6.1), as the encoder writes it.
            data = .txt(strings.isEmpty ? [[]] : strings)
        case .nsec:
            let next = try readName(field: field)
            var types: [DNSRecordType] = []
            var lastWindow = -1
            while offset < end {
                guard offset + 2 <= end else { throw DNSError(.rdataMalformed, offset: offset, field: field) }
                let window = Int(bytes[offset])
                let count = Int(bytes[offset + 1])
                guard window > lastWindow, (1...32).contains(count), offset + 2 + count <= end else {
                    throw DNSError(.rdataMalformed, offset: offset, field: field)
                }
                for (index, byte) in bytes[offset + 2..<offset + 2 + count].enumerated() {
                    for bit in 0..<8 where byte & (0x80 >> bit) != 0 {
                        types.append(DNSRecordType(rawValue: UInt16(window << 8 | index * 8 + bit)))
                    }
                }
                lastWindow = window
                offset += 2 + count
            }
            data = .nsec(next: next, types: types)
        default:
            data = .unknown(type: type, bytes: Array(bytes[start..<end]))
            offset = end
        }
        guard offset == end else { throw DNSError(.rdataMalformed, offset: start, field: field) }
        return DNSResourceRecord(
            name: name,
            data: data,
            ttl: ttl,
            cacheFlush: rawClass & 0x8000 != 0,
            recordClass: DNSClass(rawValue: rawClass & 0x7FFF)
        )
    }
}
