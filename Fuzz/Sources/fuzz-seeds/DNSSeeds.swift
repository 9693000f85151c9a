@testable import CastCore

@testable import CastNetCore

/// mDNS datagrams as a Cast device and a sender exchange them, encoded with CastNet's DNS codec.
enum DNSSeeds {
    static func seeds() throws -> SeedSet {
        var set = SeedSet(target: "dns")
        let service = try DNSName("_googlecast._tcp.local")
        let instance = try service.prepending("Chromecast-0123456789abcdef0123456789abcdef")
        let host = try DNSName("0123456789ab-cdef-0123-4567-89abcdef0123.local")
        let txt: [[UInt8]] = [
            "id=0123456789abcdef0123456789abcdef", "cd=FEDCBA9876543210", "rm=", "ve=05",
            "md=Chromecast", "ic=/setup/icon.png", "fn=Living Room \u{1F4FA}", "ca=201221", "st=0",
            "bs=FA8FCA000000", "nf=1", "rs=",
        ].map { Array($0.utf8) }
        let answers = [
            DNSResourceRecord(name: service, data: .ptr(instance), ttl: 120),
            DNSResourceRecord(
                name: try DNSName("_CC1AD845._sub._googlecast._tcp.local"),
                data: .ptr(instance),
                ttl: 120
            ),
        ]
        let additionals = [
            DNSResourceRecord(
                name: instance,
                data: .srv(priority: 0, weight: 0, port: 8009, target: host),
                ttl: 120,
                cacheFlush: true
            ),
            DNSResourceRecord(name: instance, data: .txt(txt), ttl: 4500, cacheFlush: true),
            DNSResourceRecord(name: host, data: .a(IPv4Address(127, 0, 0, 1)), ttl: 120, cacheFlush: true),
            DNSResourceRecord(
                name: host,
                data: .aaaa(IPv6Address(bytes: [UInt8](repeating: 0, count: 15) + [1])!),
                ttl: 120,
                cacheFlush: true
            ),
            DNSResourceRecord(name: host, data: .nsec(next: host, types: [.a, .aaaa]), ttl: 120, cacheFlush: true),
            DNSResourceRecord(
                name: instance,
                data: .unknown(type: DNSRecordType(rawValue: 99), bytes: [1, 2, 3]),
                ttl: 60
            ),
        ]
        set.add("announcement", try DNSMessage.response(answers: answers, additionals: additionals).encoded())
        set.add(
            "goodbye",
            try DNSMessage.response(
                answers: answers.map {
                    var r = $0
                    r.ttl = 0
                    return r
                }
            ).encoded()
        )
        set.add("query", try DNSMessage.query([DNSQuestion(name: service, type: .ptr)]).encoded())
        set.add(
            "query-qu-known-answer",
            try DNSMessage.query(
                [
                    DNSQuestion(name: service, type: .ptr, unicastResponse: true),
                    DNSQuestion(name: host, type: .any),
                ],
                knownAnswers: [answers[0]]
            ).encoded()
        )
        set.add(
            "probe",
            try DNSMessage.query([DNSQuestion(name: instance, type: .any)], authorities: additionals).encoded()
        )
        set.add("header-only", [0, 0, 0x84, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        return set
    }
}
