import CastCore
package import CastTime

/// The mDNS responder for a set of DNS-SD services (RFC 6762, RFC 6763), without I/O.
///
/// For each service it probes three times 250 ms apart, renames on a conflict (`Name (2)`),
/// announces twice one second apart, then answers queries: unique records (SRV, TXT, A, AAAA)
/// at once, shared records (PTR) after a random 20–120 ms, unicast when a question asks for
/// it (QU) or comes from a port other than 5353 (legacy unicast), leaving out what the
/// querier lists as known answers. Removing a service, or the responder, sends goodbyes.
package struct MDNSResponderStateMachine: Sendable {
    /// Identifies a registered service.
    package struct ServiceID: Hashable, Comparable, Sendable {
        package let rawValue: Int
        package static func < (lhs: ServiceID, rhs: ServiceID) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Where a message goes.
    package enum Destination: Hashable, Sendable {
        /// The mDNS group on every interface.
        case multicast
        /// One querier.
        case unicast(UDPEndpoint)
    }

    /// Something the owner must do.
    package enum Action: Hashable, Sendable {
        /// Send a message.
        case send(DNSMessage, Destination)
        /// A service finished probing and is announced under `name`.
        case registered(ServiceID, name: String)
        /// A service's name was taken by another host; it probes again as `to`.
        case renamed(ServiceID, from: String, to: String)
    }

    /// The mDNS port.
    package static let port: UInt16 = 5353
    /// The TTL of records naming a host (SRV, A, AAAA), RFC 6762 §10.
    package static let hostRecordTTL: UInt32 = 120
    /// The TTL of other records (PTR, TXT).
    package static let otherRecordTTL: UInt32 = 4500
    static let servicesName = try! DNSName("_services._dns-sd._udp.local")

    private enum Phase: Hashable, Sendable {
        case probing(sent: Int, next: CastInstant)
        case announcing(sent: Int, next: CastInstant)
        case established
    }

    private struct Entry: Sendable {
        var service: MDNSService
        var baseName: String
        var instanceLabel: String
        var hostLabel: String
        var instanceConflicts = 1
        var hostConflicts = 1
        var phase: Phase
        var registered = false
        /// The records of the service under its current names, rebuilt on every change.
        var records: [DNSResourceRecord] = []
        /// The owner names of the unique (cache-flush) records among them.
        var uniqueNames: Set<DNSName> = []
    }

    private var entries: [ServiceID: Entry] = [:] {
        didSet { activeRecordsCache = nil }
    }
    /// ``activeRecords()`` until ``entries`` changes: every query is answered from it, and
    /// rebuilding it for each of a thousand services' queries made answering quadratic.
    private var activeRecordsCache: (all: [DNSResourceRecord], byName: [DNSName: [DNSResourceRecord]])?
    private var nextID = 1
    /// Shared answers waiting for their random delay, and the known answers of the query.
    private var pendingMulticast: (at: CastInstant, answers: [DNSResourceRecord], known: [DNSResourceRecord])?
    private var random: MDNSRandom
    /// When each record was last multicast, for the one-second rate limit (RFC 6762 §6.2)
    /// and the choice between unicast and multicast for QU questions (§5.4).
    private var lastMulticast: [DNSResourceRecord: CastInstant] = [:]
    /// The largest message sent, counted without name compression; answers that do not fit
    /// go into further messages, so many services never make a datagram the link cannot carry.
    package var maximumMessageSize: Int

    /// Creates a responder with no services.
    package init(random: MDNSRandom = MDNSRandom(), maximumMessageSize: Int = 1400) {
        self.random = random
        self.maximumMessageSize = maximumMessageSize
    }

    /// When ``tick(now:)`` must be called next.
    package var nextDeadline: CastInstant? {
        let phases = entries.values.compactMap { entry -> CastInstant? in
            switch entry.phase {
            case .probing(_, let next), .announcing(_, let next): next
            case .established: nil
            }
        }
        return (phases + [pendingMulticast?.at].compactMap { $0 }).min()
    }

    /// The current instance name of a service.
    package func instanceName(of id: ServiceID) -> String? { entries[id]?.instanceLabel }

    /// The current full service name of a service.
    package func serviceName(of id: ServiceID) -> DNSName? { entries[id].flatMap { try? instanceName($0) } }

    /// Adds a service; probing starts after a random 0–250 ms.
    package mutating func register(_ service: MDNSService, now: CastInstant) -> ServiceID {
        let id = ServiceID(rawValue: nextID)
        nextID += 1
        let base = Self.truncatedLabel(service.instanceName, limit: 63)
        var entry = Entry(
            service: service,
            baseName: base,
            instanceLabel: base,
            hostLabel: Self.truncatedLabel(service.hostName, limit: 63),
            phase: .probing(sent: 0, next: now + .milliseconds(Int.random(in: 0...250, using: &random)))
        )
        // Names this responder already holds conflict without asking the network.
        func taken(_ label: String) -> Bool {
            entries.values.contains {
                $0.service.serviceType.lowercased() == service.serviceType.lowercased()
                    && $0.instanceLabel.lowercased() == label.lowercased()
            }
        }
        while taken(entry.instanceLabel) {
            entry.instanceConflicts += 1
            let suffix = " (\(entry.instanceConflicts))"
            entry.instanceLabel = Self.truncatedLabel(base, limit: 63 - suffix.utf8.count) + suffix
        }
        refreshRecords(&entry)
        entries[id] = entry
        return id
    }

    /// Changes the TXT record, subtypes or addresses of a service and announces the change;
    /// subtypes that were dropped get a goodbye.
    package mutating func update(_ id: ServiceID, to service: MDNSService, now: CastInstant) -> [Action] {
        guard var entry = entries[id] else { return [] }
        let oldRecords = entry.records
        entry.service.txt = service.txt
        entry.service.subtypes = service.subtypes
        entry.service.addresses = service.addresses
        entry.service.port = service.port
        refreshRecords(&entry)
        entries[id] = entry
        guard !isProbing(entry) else { return [] }
        let newRecords = entry.records
        let gone = oldRecords.filter { old in old.type == .ptr && !newRecords.contains { $0.isSameRecord(as: old) } }
            .map { record -> DNSResourceRecord in
                var record = record
                record.ttl = 0
                return record
            }
        entries[id]?.phase = .announcing(sent: 1, next: now + .seconds(1))
        return (packed(gone) + packed(newRecords)).map { .send($0, .multicast) }
    }

    /// Removes a service, sending goodbyes when it had been announced.
    package mutating func unregister(_ id: ServiceID) -> [Action] {
        guard let entry = entries.removeValue(forKey: id) else { return [] }
        return goodbye([entry])
    }

    /// Removes every service, sending goodbyes for those announced.
    package mutating func shutdown() -> [Action] {
        let all = entries.keys.sorted().compactMap { entries[$0] }
        entries = [:]
        pendingMulticast = nil
        lastMulticast = [:]
        return goodbye(all)
    }

    /// Handles the passing of time: probes, announcements and delayed answers.
    package mutating func tick(now: CastInstant) -> [Action] {
        noteMulticasts(tickActions(now: now), now: now)
    }

    private mutating func tickActions(now: CastInstant) -> [Action] {
        var actions: [Action] = []
        for id in entries.keys.sorted() {
            guard let entry = entries[id] else { continue }
            switch entry.phase {
            case .probing(let sent, let next) where next <= now:
                if sent == 3 {
                    entries[id]?.phase = .announcing(sent: 1, next: now + .seconds(1))
                    actions += packed(entry.records).map { .send($0, .multicast) }
                    if !entry.registered {
                        entries[id]?.registered = true
                        actions.append(.registered(id, name: entry.instanceLabel))
                    }
                } else {
                    entries[id]?.phase = .probing(sent: sent + 1, next: now + .milliseconds(250))
                    actions.append(.send(probe(entry, first: sent == 0), .multicast))
                }
            case .announcing(let sent, let next) where next <= now:
                entries[id]?.phase = sent + 1 >= 2 ? .established : .announcing(sent: sent + 1, next: now + .seconds(1))
                actions += packed(entry.records).map { .send($0, .multicast) }
            default:
                break
            }
        }
        if let pending = pendingMulticast, pending.at <= now {
            pendingMulticast = nil
            let messages = packed(pending.answers, known: pending.known, byName: activeRecords().byName)
            actions += messages.map { .send($0, .multicast) }
        }
        return actions
    }

    /// Handles a received message from `source`.
    package mutating func receive(_ message: DNSMessage, from source: UDPEndpoint, now: CastInstant) -> [Action] {
        guard message.opcode == 0 else { return [] }
        let actions =
            message.isResponse ? receiveResponse(message, now: now) : receiveQuery(message, from: source, now: now)
        return noteMulticasts(actions, now: now)
    }

    private mutating func noteMulticasts(_ actions: [Action], now: CastInstant) -> [Action] {
        for case .send(let message, .multicast) in actions where message.isResponse {
            for record in message.answers + message.additionals where record.ttl > 0 {
                lastMulticast[record] = now
            }
        }
        return actions
    }

    private func multicastRecently(_ record: DNSResourceRecord, within interval: Duration, now: CastInstant) -> Bool {
        lastMulticast[record].map { now - $0 < interval } ?? false
    }

    // MARK: - Conflicts

    private mutating func receiveResponse(_ message: DNSMessage, now: CastInstant) -> [Action] {
        var actions: [Action] = []
        let names = Set(message.allRecords.lazy.filter { $0.ttl > 0 }.map(\.name))
        for id in entries.keys.sorted() {
            guard let entry = entries[id], !entry.uniqueNames.isDisjoint(with: names) else { continue }
            let ours = entry.records
            let uniqueNames = entry.uniqueNames
            let probing = isProbing(entry)
            let conflicting = message.allRecords.filter { theirs in
                guard theirs.ttl > 0, uniqueNames.contains(theirs.name),
                    !ours.contains(where: { $0.isSameRecord(as: theirs) })
                else { return false }
                // While probing, any other data for our names means the name is taken; once
                // announced, only a unique record of the same type contradicts ours.
                return probing
                    || (theirs.cacheFlush && ours.contains { $0.name == theirs.name && $0.type == theirs.type })
            }
            guard !conflicting.isEmpty else { continue }
            let instance = try? instanceName(entry)
            if probing {
                actions += rename(id, instance: conflicting.contains { $0.name == instance }, now: now)
            } else {
                // An announced record is contradicted: probe again (RFC 6762 §9).
                entries[id]?.phase = .probing(sent: 0, next: now)
            }
        }
        return actions
    }

    private func isProbing(_ entry: Entry) -> Bool {
        if case .probing = entry.phase { return true }
        return false
    }

    private mutating func rename(_ id: ServiceID, instance: Bool, now: CastInstant) -> [Action] {
        guard var entry = entries[id] else { return [] }
        let old = entry.instanceLabel
        if instance {
            entry.instanceConflicts += 1
            let suffix = " (\(entry.instanceConflicts))"
            entry.instanceLabel = Self.truncatedLabel(entry.baseName, limit: 63 - suffix.utf8.count) + suffix
        } else {
            entry.hostConflicts += 1
            let suffix = "-\(entry.hostConflicts)"
            entry.hostLabel = Self.truncatedLabel(entry.service.hostName, limit: 63 - suffix.utf8.count) + suffix
        }
        refreshRecords(&entry)
        entry.phase = .probing(sent: 0, next: now + .milliseconds(250))
        entries[id] = entry
        return instance ? [.renamed(id, from: old, to: entry.instanceLabel)] : []
    }

    /// Simultaneous probing (RFC 6762 §8.2): the side whose proposed records sort earlier
    /// waits one second and probes again.
    private mutating func tiebreak(_ message: DNSMessage, now: CastInstant) {
        for id in entries.keys.sorted() {
            guard let entry = entries[id], isProbing(entry) else { continue }
            let ours = entry.records.filter(\.cacheFlush)
            for name in Set(ours.map(\.name)) where message.questions.contains(where: { $0.name == name }) {
                let theirs = message.authorities.filter { $0.name == name }
                guard !theirs.isEmpty else { continue }
                let mine = ours.filter { $0.name == name }
                if Self.compare(mine, theirs) < 0 {
                    entries[id]?.phase = .probing(sent: 0, next: now + .seconds(1))
                }
            }
        }
    }

    static func compare(_ lhs: [DNSResourceRecord], _ rhs: [DNSResourceRecord]) -> Int {
        func key(_ record: DNSResourceRecord) -> [UInt8] {
            var writer = DNSWriter()
            writer.writeUInt16(record.recordClass.rawValue)
            writer.writeUInt16(record.type.rawValue)
            let start = writer.bytes.count
            try? writer.writeRecord(DNSResourceRecord(name: .root, data: record.data, ttl: 0))
            return Array(writer.bytes[..<start]) + Array(writer.bytes[(start + 11)...])
        }
        let left = lhs.map(key).sorted { $0.lexicographicallyPrecedes($1) }
        let right = rhs.map(key).sorted { $0.lexicographicallyPrecedes($1) }
        for (a, b) in zip(left, right) where a != b {
            return a.lexicographicallyPrecedes(b) ? -1 : 1
        }
        return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
    }

    // MARK: - Answers

    private mutating func receiveQuery(_ message: DNSMessage, from source: UDPEndpoint, now: CastInstant) -> [Action] {
        tiebreak(message, now: now)
        if message.questions.isEmpty {
            suppressKnownAnswers(message.answers)
            return []
        }
        let legacy = source.port != Self.port
        let isProbe = !message.authorities.isEmpty
        let (all, byName) = activeRecords()
        var immediate: [DNSResourceRecord] = []
        var delayed: [DNSResourceRecord] = []
        var unicast: [DNSResourceRecord] = []
        for question in message.questions {
            for record in all where question.isAnswered(by: record) {
                let known = message.answers.contains {
                    $0.isSameRecord(as: record) && UInt64($0.ttl) * 2 >= UInt64(record.ttl)
                }
                guard !known || isProbe else { continue }
                // A QU question gets a unicast reply only when the record was multicast in the
                // last quarter of its TTL; otherwise everyone on the link should hear it.
                let unicastAllowed = multicastRecently(record, within: .seconds(Int64(record.ttl)) / 4, now: now)
                if legacy || (question.unicastResponse && !isProbe && unicastAllowed) {
                    append(record, to: &unicast)
                } else if !isProbe, multicastRecently(record, within: .seconds(1), now: now) {
                    continue
                } else if record.cacheFlush || isProbe {
                    append(record, to: &immediate)
                } else {
                    append(record, to: &delayed)
                }
            }
        }
        var actions: [Action] = []
        if legacy, !unicast.isEmpty {
            let answers = unicast.map { record -> DNSResourceRecord in
                var record = record
                record.ttl = min(record.ttl, 10)
                record.cacheFlush = false
                return record
            }
            let reply = DNSMessage.response(id: message.id, questions: message.questions, answers: answers)
            actions.append(.send(reply, .unicast(source)))
            return actions
        }
        actions += packed(unicast, known: message.answers, byName: byName).map { .send($0, .unicast(source)) }
        actions += packed(immediate, known: message.answers, byName: byName).map { .send($0, .multicast) }
        if !delayed.isEmpty {
            var pending = pendingMulticast ?? (now + .milliseconds(Int.random(in: 20...120, using: &random)), [], [])
            for record in delayed { append(record, to: &pending.answers) }
            pending.known = message.answers
            if message.isTruncated {
                // More known answers follow (RFC 6762 §7.2): wait 400–500 ms for them.
                pending.at = max(pending.at, now + .milliseconds(Int.random(in: 400...500, using: &random)))
            }
            pendingMulticast = pending
        }
        return actions
    }

    /// A message of known answers only, continuing a truncated query: the answers it lists
    /// with at least half their TTL left are not sent.
    private mutating func suppressKnownAnswers(_ known: [DNSResourceRecord]) {
        guard var pending = pendingMulticast, !known.isEmpty else { return }
        pending.answers.removeAll { record in
            known.contains { $0.isSameRecord(as: record) && UInt64($0.ttl) * 2 >= UInt64(record.ttl) }
        }
        pending.known += known
        pendingMulticast = pending.answers.isEmpty ? nil : pending
    }

    private func append(_ record: DNSResourceRecord, to list: inout [DNSResourceRecord]) {
        if !list.contains(record) { list.append(record) }
    }

    /// The records of every announced service in registration order, without duplicates
    /// (the shared `_services._dns-sd._udp` PTR), and the same by owner name.
    private mutating func activeRecords() -> (all: [DNSResourceRecord], byName: [DNSName: [DNSResourceRecord]]) {
        if let cached = activeRecordsCache { return cached }
        var all: [DNSResourceRecord] = []
        var byName: [DNSName: [DNSResourceRecord]] = [:]
        var seen = Set<DNSResourceRecord>()
        for id in entries.keys.sorted() {
            guard let entry = entries[id], !isProbing(entry) else { continue }
            for record in entry.records where seen.insert(record).inserted {
                all.append(record)
                byName[record.name, default: []].append(record)
            }
        }
        activeRecordsCache = (all, byName)
        return (all, byName)
    }

    /// RFC 6763 §12: a PTR answer brings the SRV, TXT and addresses; an SRV answer brings addresses.
    private func additionals(
        for answer: DNSResourceRecord,
        byName: [DNSName: [DNSResourceRecord]]
    ) -> [DNSResourceRecord] {
        var names: [DNSName] = []
        switch answer.data {
        case .ptr(let instance): names.append(instance)
        case .srv(_, _, _, let target): names.append(target)
        default: return []
        }
        var result: [DNSResourceRecord] = []
        var index = 0
        while index < names.count {
            for record in byName[names[index]] ?? [] where record.type != .ptr {
                if case .srv(_, _, _, let target) = record.data, !names.contains(target) { names.append(target) }
                if !result.contains(record) { result.append(record) }
            }
            index += 1
        }
        return result
    }

    // MARK: - Records

    private func instanceName(_ entry: Entry) throws(DNSError) -> DNSName {
        try serviceTypeName(entry).prepending(entry.instanceLabel)
    }

    private func serviceTypeName(_ entry: Entry) throws(DNSError) -> DNSName {
        try DNSName(entry.service.serviceType + ".local")
    }

    private func refreshRecords(_ entry: inout Entry) {
        entry.records = makeRecords(entry)
        entry.uniqueNames = Set(entry.records.filter(\.cacheFlush).map(\.name))
    }

    /// Responses carrying `answers` in order, each answer followed by the additional records
    /// it brings (those not among the answers or the querier's `known` answers), in messages
    /// of at most ``maximumMessageSize`` bytes counted without compression. An answer with its
    /// additional records starts a new message when it does not fit the current one; an
    /// additional record that fits nowhere is left out, as a querier asks for what it misses.
    private func packed(
        _ answers: [DNSResourceRecord],
        known: [DNSResourceRecord] = [],
        byName: [DNSName: [DNSResourceRecord]] = [:]
    ) -> [DNSMessage] {
        let answerSet = Set(answers)
        var messages: [DNSMessage] = []
        var current = DNSMessage.response(answers: [])
        var size = DNSMessage.headerSize
        for answer in answers {
            let extra = additionals(for: answer, byName: byName).filter { record in
                !answerSet.contains(record) && !current.additionals.contains(record)
                    && !known.contains { $0.isSameRecord(as: record) }
            }
            let cost = answer.uncompressedSize
            let extraCost = extra.reduce(0) { $0 + $1.uncompressedSize }
            if size + cost + extraCost > maximumMessageSize, !current.answers.isEmpty {
                messages.append(current)
                current = DNSMessage.response(answers: [])
                size = DNSMessage.headerSize
            }
            current.answers.append(answer)
            size += cost
            for record in extra where size + record.uncompressedSize <= maximumMessageSize {
                if current.additionals.contains(record) { continue }
                current.additionals.append(record)
                size += record.uncompressedSize
            }
        }
        if !current.answers.isEmpty { messages.append(current) }
        return messages
    }

    private func makeRecords(_ entry: Entry) -> [DNSResourceRecord] {
        guard let type = try? serviceTypeName(entry), let instance = try? instanceName(entry),
            let host = try? DNSName(labels: [entry.hostLabel, "local"])
        else { return [] }
        var records = [
            DNSResourceRecord(name: type, data: .ptr(instance), ttl: Self.otherRecordTTL),
            DNSResourceRecord(name: Self.servicesName, data: .ptr(type), ttl: Self.otherRecordTTL),
        ]
        for subtype in entry.service.subtypes {
            guard let name = try? DNSName(labels: [Array("_\(subtype)".utf8), Array("_sub".utf8)] + type.labels) else {
                continue
            }
            records.append(DNSResourceRecord(name: name, data: .ptr(instance), ttl: Self.otherRecordTTL))
        }
        records.append(
            DNSResourceRecord(
                name: instance,
                data: .srv(priority: 0, weight: 0, port: entry.service.port, target: host),
                ttl: Self.hostRecordTTL,
                cacheFlush: true
            )
        )
        records.append(
            DNSResourceRecord(
                name: instance,
                data: .txt(entry.service.txt.strings),
                ttl: Self.otherRecordTTL,
                cacheFlush: true
            )
        )
        for address in entry.service.addresses {
            let data: DNSRecordData =
                switch address {
                case .v4(let v4): .a(v4)
                case .v6(let v6): .aaaa(v6)
                }
            records.append(DNSResourceRecord(name: host, data: data, ttl: Self.hostRecordTTL, cacheFlush: true))
        }
        return records
    }

    private func probe(_ entry: Entry, first: Bool) -> DNSMessage {
        let proposed = entry.records.filter(\.cacheFlush)
        var names: [DNSName] = []
        for record in proposed where !names.contains(record.name) { names.append(record.name) }
        return .query(
            names.map { DNSQuestion(name: $0, type: .any, unicastResponse: first) },
            authorities: proposed.map { record in
                var record = record
                record.cacheFlush = false
                return record
            }
        )
    }

    private func goodbye(_ gone: [Entry]) -> [Action] {
        let records = gone.filter { $0.registered }.flatMap { entry in
            entry.records.filter { $0.name != Self.servicesName }
        }.map { record -> DNSResourceRecord in
            var record = record
            record.ttl = 0
            return record
        }
        return packed(records).map { .send($0, .multicast) }
    }

    static func truncatedLabel(_ text: String, limit: Int) -> String {
        var result = ""
        for character in text {
            guard result.utf8.count + String(character).utf8.count <= limit else { break }
            result.append(character)
        }
        return result
    }
}
