import CastCore

extension DNSMessage {
    /// The largest message DNS can carry.
    package static let maximumSize = 65_535

    /// Encodes the message, compressing names (owner names and the names inside PTR and SRV data).
    /// - Throws: ``DNSError`` `stringTooLong` for a TXT string over 255 bytes, `messageTooLarge`
    ///   when the result exceeds 65535 bytes.
    package func encoded() throws(DNSError) -> [UInt8] {
        var writer = DNSWriter()
        writer.writeUInt16(id)
        writer.writeUInt16(flags)
        for count in [questions.count, answers.count, authorities.count, additionals.count] {
            guard count <= 0xFFFF else { throw DNSError(.messageTooLarge, offset: writer.bytes.count, field: "header") }
            writer.writeUInt16(UInt16(count))
        }
        for question in questions {
            writer.writeName(question.name)
            writer.writeUInt16(question.type.rawValue)
            writer.writeUInt16(question.recordClass.rawValue | (question.unicastResponse ? 0x8000 : 0))
        }
        for record in answers + authorities + additionals {
            try writer.writeRecord(record)
        }
        guard writer.bytes.count <= Self.maximumSize else {
            throw DNSError(.messageTooLarge, offset: writer.bytes.count, field: "message")
        }
        return writer.bytes
    }
}

/// Appends DNS wire data, remembering where each name suffix was written for compression.
struct DNSWriter {
    private(set) var bytes: [UInt8] = []
    private var suffixOffsets: [[[UInt8]]: Int] = [:]

    init() {
        bytes.reserveCapacity(512)
    }

    mutating func writeUInt16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }

    mutating func writeUInt32(_ value: UInt32) {
        writeUInt16(UInt16(value >> 16))
        writeUInt16(UInt16(value & 0xFFFF))
    }

    mutating func writeName(_ name: DNSName, compress: Bool = true) {
        let canonical = name.canonicalLabels
        for index in canonical.indices {
            let suffix = Array(canonical[index...])
            if compress, let target = suffixOffsets[suffix] {
                writeUInt16(0xC000 | UInt16(target))
                return
            }
            if bytes.count < 0x4000, suffixOffsets[suffix] == nil {
                suffixOffsets[suffix] = bytes.count
            }
            bytes.append(UInt8(name.labels[index].count))
            bytes += name.labels[index]
        }
        bytes.append(0)
    }

    mutating func writeRecord(_ record: DNSResourceRecord) throws(DNSError) {
        writeName(record.name)
        writeUInt16(record.type.rawValue)
        writeUInt16(record.recordClass.rawValue | (record.cacheFlush ? 0x8000 : 0))
        writeUInt32(record.ttl)
        let lengthOffset = bytes.count
        writeUInt16(0)
        switch record.data {
        case .a(let address):
            bytes += address.bytes
        case .aaaa(let address):
            bytes += address.bytes
        case .ptr(let target):
            writeName(target)
        case .srv(let priority, let weight, let port, let target):
            writeUInt16(priority)
            writeUInt16(weight)
            writeUInt16(port)
            writeName(target)
        case .txt(let strings):
            // An empty TXT record is one empty string (RFC 6763 §6.1).
            for string in strings.isEmpty ? [[]] : strings {
                guard string.count <= 255 else {
                    throw DNSError(.stringTooLong, offset: bytes.count, field: "TXT rdata")
                }
                bytes.append(UInt8(string.count))
                bytes += string
            }
        case .nsec(let next, let types):
            writeName(next, compress: false)
            var windows: [UInt8: [UInt8]] = [:]
            for type in Set(types) {
                let window = UInt8(type.rawValue >> 8)
                let low = Int(type.rawValue & 0xFF)
                var bitmap = windows[window] ?? []
                if bitmap.count <= low / 8 { bitmap += Array(repeating: 0, count: low / 8 + 1 - bitmap.count) }
                bitmap[low / 8] |= 0x80 >> UInt8(low % 8)
                windows[window] = bitmap
            }
            for window in windows.keys.sorted() {
                bytes.append(window)
                bytes.append(UInt8(windows[window]!.count))
                bytes += windows[window]!
            }
        case .unknown(_, let data):
            bytes += data
        }
        let length = bytes.count - lengthOffset - 2
        guard length <= 0xFFFF else { throw DNSError(.messageTooLarge, offset: lengthOffset, field: "rdata") }
        bytes[lengthOffset] = UInt8(length >> 8)
        bytes[lengthOffset + 1] = UInt8(length & 0xFF)
    }
}
