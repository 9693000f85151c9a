import CastCore
import CastTestSupport
import Testing

@testable import CastNetCore

@Suite struct DNSMessageTests {
    static let service = try! DNSName("_googlecast._tcp.local")
    static let instance = try! DNSName(labels: ["Living Room.TV", "_googlecast", "_tcp", "local"])
    static let host = try! DNSName("f38e268b2fc3268a56b9fa12e75bbb4a.local")

    static var sample: DNSMessage {
        DNSMessage(
            id: 0,
            flags: DNSMessage.responseFlags,
            questions: [DNSQuestion(name: service, type: .ptr, unicastResponse: true)],
            answers: [DNSResourceRecord(name: service, data: .ptr(instance), ttl: 4500)],
            authorities: [],
            additionals: [
                DNSResourceRecord(
                    name: instance,
                    data: .srv(priority: 0, weight: 0, port: 8009, target: host),
                    ttl: 120,
                    cacheFlush: true
                ),
                DNSResourceRecord(
                    name: instance,
                    data: .txt([Array("id=f38e268b2fc3268a56b9fa12e75bbb4a".utf8), Array("fn=Living Room".utf8), []]),
                    ttl: 4500,
                    cacheFlush: true
                ),
                DNSResourceRecord(name: host, data: .a(IPv4Address(127, 0, 0, 1)), ttl: 120, cacheFlush: true),
                DNSResourceRecord(name: host, data: .aaaa(IPv6Address("fe80::1")!), ttl: 120, cacheFlush: true),
                DNSResourceRecord(name: host, data: .nsec(next: host, types: [.a, .aaaa, .nsec]), ttl: 120),
                DNSResourceRecord(
                    name: instance,
                    data: .nsec(next: instance, types: [.txt, .srv, .init(rawValue: 300)]),
                    ttl: 120
                ),
                DNSResourceRecord(name: host, data: .unknown(type: .init(rawValue: 99), bytes: [1, 2, 3]), ttl: 7),
            ]
        )
    }

    @Test func roundTripsEveryRecordType() throws {
        let bytes = try Self.sample.encoded()
        let decoded = try DNSMessage(decoding: bytes)
        #expect(decoded == Self.sample)
        #expect(decoded.questions[0].unicastResponse)
        #expect(decoded.additionals[0].cacheFlush)
        #expect(!decoded.answers[0].cacheFlush)
        #expect(decoded.isResponse)
        #expect(try decoded.encoded() == bytes)
    }

    @Test func compressesRepeatedNames() throws {
        let bytes = try Self.sample.encoded()
        let uncompressed =
            12 + Self.sample.questions.reduce(0) { $0 + $1.name.wireLength + 4 }
            + Self.sample.allRecords.reduce(0) { $0 + $1.name.wireLength + 10 }
        #expect(bytes.count < uncompressed)
        // The answer's owner name repeats the question name: a pointer to offset 12.
        let questionEnd = 12 + Self.service.wireLength + 4
        #expect(Array(bytes[questionEnd..<questionEnd + 2]) == [0xC0, 12])
    }

    @Test func decodesHandWrittenQueryWithPointer() throws {
        // One question `a.local` PTR, one known answer named by a pointer to it.
        let bytes: [UInt8] =
            [0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0]
            + [1, 0x61, 5, 0x6C, 0x6F, 0x63, 0x61, 0x6C, 0, 0, 12, 0x80, 1]
            + [0xC0, 12, 0, 12, 0, 1, 0, 0, 0, 10, 0, 4, 1, 0x62, 0xC0, 14]
        let message = try DNSMessage(decoding: bytes)
        #expect(message.questions == [DNSQuestion(name: try DNSName("a.local"), type: .ptr, unicastResponse: true)])
        #expect(
            message.answers == [
                DNSResourceRecord(name: try DNSName("A.LOCAL"), data: .ptr(try DNSName("b.local")), ttl: 10)
            ]
        )
    }

    static func header(qd: UInt16 = 0, an: UInt16 = 0, ns: UInt16 = 0, ar: UInt16 = 0) -> [UInt8] {
        [0, 0, 0x84, 0] + [qd, an, ns, ar].flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    static let longLabel = [UInt8](repeating: 0x61, count: 63)

    static let malformed: [(String, [UInt8], DNSError.Code, Int)] = [
        ("short header", [0, 0, 0x84, 0, 0], .truncated, 4),
        ("pointer at itself", header(qd: 1) + [0xC0, 12, 0, 1, 0, 1], .pointerForward, 12),
        ("pointer forward", header(qd: 1) + [0xC0, 16, 0, 1, 0, 1, 0, 0], .pointerForward, 12),
        ("pointer past end", header(qd: 1) + [0xC0, 0xFF, 0, 1, 0, 1], .pointerOutOfBounds, 12),
        ("compression loop", header(qd: 1) + [1, 0x61, 0xC0, 12, 0, 1, 0, 1], .pointerLoop, 14),
        ("loop through a forward pointer", header(qd: 1) + [0xC0, 14, 0xC0, 12, 0, 1, 0, 1], .pointerForward, 12),
        (
            "label of 64 bytes", header(qd: 1) + [64] + [UInt8](repeating: 0x61, count: 64) + [0, 0, 1, 0, 1],
            .labelTooLong, 12
        ),
        ("reserved label type", header(qd: 1) + [0x80, 0, 0, 1, 0, 1], .reservedLabelType, 12),
        (
            "name over 255 bytes", header(qd: 1) + (0..<5).flatMap { _ in [63] + longLabel } + [0, 0, 1, 0, 1],
            .nameTooLong, 12 + 3 * 64
        ),
        ("counts larger than packet", header(qd: 100) + [0, 0, 1, 0, 1], .countTooLarge, 4),
        ("truncated question", header(qd: 1) + [1, 0x61, 0, 0, 1, 0], .truncated, 17),
        ("name without end", header(qd: 1) + [7, 0x61, 0x62, 0x63, 0x64, 0x65], .truncated, 12),
        ("truncated record", header(an: 1) + [1, 0x61, 0, 0, 1, 0, 1, 0, 0, 0, 9], .truncated, 23),
        ("rdlength past end", header(an: 1) + [0, 0, 1, 0, 1, 0, 0, 0, 9, 0, 100, 1, 2, 3, 4], .rdataOverrun, 21),
        ("A of 3 bytes", header(an: 1) + [0, 0, 1, 0, 1, 0, 0, 0, 9, 0, 3, 1, 2, 3], .rdataMalformed, 23),
        ("TXT string past rdata", header(an: 1) + [0, 0, 16, 0, 1, 0, 0, 0, 9, 0, 2, 5, 0x61, 0], .rdataMalformed, 23),
        ("PTR name past rdata", header(an: 1) + [0, 0, 12, 0, 1, 0, 0, 0, 9, 0, 1, 1, 0x61, 0], .rdataMalformed, 23),
        ("SRV too short", header(an: 1) + [0, 0, 33, 0, 1, 0, 0, 0, 9, 0, 3, 0, 0, 0], .rdataMalformed, 23),
        (
            "NSEC window of 33 bytes",
            header(an: 1) + [0, 0, 47, 0, 1, 0, 0, 0, 9, 0, 36, 0, 0, 33] + [UInt8](repeating: 0, count: 33),
            .rdataMalformed, 24
        ),
    ]

    @Test(arguments: malformed)
    func rejectsMalformedPacket(_ testCase: (String, [UInt8], DNSError.Code, Int)) {
        let (name, bytes, code, offset) = testCase
        do {
            let message = try DNSMessage(decoding: bytes)
            Issue.record("\(name): decoded \(message)")
        } catch {
            #expect(error.code == code, "\(name): \(error)")
            #expect(error.offset == offset, "\(name): \(error)")
            #expect(error.description.contains("byte \(offset)"))
        }
    }

    @Test func truncatingAtEveryByteThrows() throws {
        let bytes = try Self.sample.encoded()
        for length in 0..<bytes.count {
            #expect(throws: DNSError.self, "length \(length)") { try DNSMessage(decoding: Array(bytes[..<length])) }
        }
    }

    @Test func randomMutationsNeverCrash() async throws {
        let bytes = try Self.sample.encoded()
        let decodedCount = try await offThePool {
            var random = MDNSRandom(seed: 42)
            var decodedCount = 0
            for _ in 0..<20_000 {
                var mutated = bytes
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    mutated[Int.random(in: 0..<mutated.count, using: &random)] = UInt8.random(
                        in: 0...255,
                        using: &random
                    )
                }
                if let message = try? DNSMessage(decoding: mutated) {
                    decodedCount += 1
                    _ = try? message.encoded()
                }
            }
            return decodedCount
        }
        #expect(decodedCount > 0)
    }

    @Test func nameLimitsAreEnforcedOnConstruction() {
        expectDNSError(.labelTooLong) { try DNSName(labels: [[UInt8](repeating: 0x61, count: 64)]) }
        expectDNSError(.nameTooLong) { try DNSName(labels: Array(repeating: Self.longLabel, count: 4)) }
        expectDNSError(.emptyLabel) { try DNSName("a..local") }
        expectDNSError(.stringTooLong) {
            try DNSMessage.response(answers: [
                DNSResourceRecord(name: Self.host, data: .txt([[UInt8](repeating: 0x61, count: 256)]), ttl: 1)
            ]).encoded()
        }
    }

    @Test func namesCompareWithoutCaseAndEscapeDots() throws {
        #expect(try DNSName("_GoogleCast._TCP.local") == DNSName("_googlecast._tcp.local"))
        #expect(Self.instance.description == "Living Room\\.TV._googlecast._tcp.local")
        #expect(try DNSName(Self.instance.description) == Self.instance)
        #expect(Self.instance.hasSuffix(Self.service))
        #expect(!Self.service.hasSuffix(Self.instance))
    }
}

func expectDNSError<T>(
    _ code: DNSError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> T
) {
    #expect(sourceLocation: sourceLocation) {
        _ = try body()
    } throws: { error in
        (error as? DNSError)?.code == code
    }
}
