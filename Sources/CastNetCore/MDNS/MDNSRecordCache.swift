package import CastTime

/// The records an mDNS querier has heard, with their lifetimes (RFC 6762 §5.2, §10).
///
/// Each record expires at 100 % of its TTL; before that the cache asks for it again at
/// 80 %, 85 %, 90 % and 95 % of the TTL, each point moved later by up to 2 % of the TTL at
/// random. A goodbye (TTL 0) removes a record at once or one second later, and a record with
/// the cache-flush bit makes older records of the same name and type expire after one second.
package struct MDNSRecordCache: Sendable {
    /// A cached record and its schedule.
    package struct Entry: Hashable, Sendable {
        /// The record as received, with its original TTL.
        package var record: DNSResourceRecord
        /// When it was last received.
        package var receivedAt: CastInstant
        /// When it expires.
        package var expiresAt: CastInstant
        /// When the next refresh query is due, or `nil` when no more are planned.
        package var refreshAt: CastInstant?
        /// How many refresh queries have been sent since it was last received.
        package var refreshCount: Int

        /// The TTL left at `now`, in whole seconds.
        package func remainingTTL(at now: CastInstant) -> UInt32 {
            let left = expiresAt - now
            guard left > .zero else { return 0 }
            return UInt32(clamping: left.components.seconds)
        }
    }

    /// The most records kept; records beyond it are ignored until others expire.
    package let capacity: Int
    private(set) var entriesByName: [DNSName: [Entry]] = [:]
    private(set) var count = 0

    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// Every entry.
    package var entries: [Entry] { entriesByName.values.flatMap { $0 } }

    /// The live records with a name, optionally of one type.
    package func records(named name: DNSName, type: DNSRecordType? = nil) -> [Entry] {
        (entriesByName[name] ?? []).filter { type == nil || $0.record.type == type }
    }

    /// Adds or refreshes a record, or handles it as a goodbye when its TTL is 0.
    /// - Returns: whether the cache changed in a way that can change what is known (a new or
    ///   removed record, or new data); a plain TTL refresh returns `false`.
    @discardableResult
    package mutating func insert(
        _ record: DNSResourceRecord,
        now: CastInstant,
        removeGoodbyesAtOnce: Bool,
        random: inout MDNSRandom
    ) -> Bool {
        var list = entriesByName[record.name] ?? []
        let existing = list.firstIndex { $0.record.isSameRecord(as: record) }
        if record.ttl == 0 {
            guard let existing else { return false }
            if removeGoodbyesAtOnce {
                list.remove(at: existing)
                count -= 1
            } else {
                list[existing].expiresAt = min(list[existing].expiresAt, now + .seconds(1))
                list[existing].refreshAt = nil
            }
            store(list, for: record.name)
            return removeGoodbyesAtOnce
        }
        if record.cacheFlush {
            for index in list.indices
            where list[index].record.type == record.type && index != existing
                && list[index].receivedAt < now - .seconds(1)
            {
                list[index].expiresAt = min(list[index].expiresAt, now + .seconds(1))
                list[index].refreshAt = nil
            }
        }
        var entry = Entry(
            record: record,
            receivedAt: now,
            expiresAt: now + .seconds(Int64(record.ttl)),
            refreshAt: nil,
            refreshCount: 0
        )
        entry.refreshAt = Self.refreshTime(for: entry, step: 0, random: &random)
        if let existing {
            list[existing] = entry
            store(list, for: record.name)
            return false
        }
        guard count < capacity else { return false }
        list.append(entry)
        count += 1
        store(list, for: record.name)
        return true
    }

    /// Removes expired records.
    /// - Returns: the removed entries.
    package mutating func expire(now: CastInstant) -> [Entry] {
        var removed: [Entry] = []
        for (name, list) in entriesByName where list.contains(where: { $0.expiresAt <= now }) {
            removed += list.filter { $0.expiresAt <= now }
            store(list.filter { $0.expiresAt > now }, for: name)
        }
        count -= removed.count
        return removed
    }

    /// Returns the records whose refresh query is due and plans their next one.
    package mutating func takeDueRefreshes(now: CastInstant, random: inout MDNSRandom) -> [DNSResourceRecord] {
        var due: [DNSResourceRecord] = []
        for (name, var list) in entriesByName {
            var changed = false
            for index in list.indices {
                guard let refreshAt = list[index].refreshAt, refreshAt <= now else { continue }
                due.append(list[index].record)
                list[index].refreshCount += 1
                list[index].refreshAt = Self.refreshTime(
                    for: list[index],
                    step: list[index].refreshCount,
                    random: &random
                )
                changed = true
            }
            if changed { entriesByName[name] = list }
        }
        return due
    }

    /// The earliest expiry or refresh time.
    package var nextDeadline: CastInstant? {
        var earliest: CastInstant?
        for list in entriesByName.values {
            for entry in list {
                let candidate = min(entry.expiresAt, entry.refreshAt ?? entry.expiresAt)
                if earliest.map({ candidate < $0 }) ?? true { earliest = candidate }
            }
        }
        return earliest
    }

    /// Removes everything.
    package mutating func removeAll() {
        entriesByName = [:]
        count = 0
    }

    private mutating func store(_ list: [Entry], for name: DNSName) {
        entriesByName[name] = list.isEmpty ? nil : list
    }

    /// The refresh point `step` (0 → 80 %, 1 → 85 %, 2 → 90 %, 3 → 95 %) plus up to 2 % jitter.
    private static func refreshTime(for entry: Entry, step: Int, random: inout MDNSRandom) -> CastInstant? {
        guard step < 4 else { return nil }
        let ttl = entry.expiresAt - entry.receivedAt
        let permille = 800 + 50 * step + Int.random(in: 0...20, using: &random)
        return entry.receivedAt + ttl * permille / 1000
    }
}
