package import CastCore
package import CastTime

/// The mDNS/DNS-SD querier that browses for Cast devices (RFC 6762, RFC 6763), without I/O.
///
/// The owner feeds it received messages and the passing of time, and performs the actions it
/// returns: messages to multicast and device events to publish. It queries continuously for
/// `_googlecast._tcp.local` (and the `_<APPID>._sub` subtype when an app ID is given, as an
/// extra question: a device advertising only the plain type is still found) with intervals of 1 s, 2 s,
/// 4 s … up to one hour, lists the PTR answers it already holds with more than half their TTL
/// left (known-answer suppression), keeps a TTL-honouring cache with refresh queries, asks
/// for the SRV, TXT and address records a device is missing, and turns complete services into
/// ``CastDevice`` values.
package struct MDNSQuerierStateMachine: Sendable {
    /// What the querier looks for and how.
    package struct Configuration: Sendable {
        /// The service type browsed.
        package var serviceType: DNSName
        /// A receiver application ID: its `_<APPID>._sub.<serviceType>` subtype is asked for
        /// besides the plain type. Devices that advertise only the plain type are found too
        /// unless ``requiresApplicationSubtype`` is set.
        package var applicationID: String?
        /// Whether only devices advertising the ``applicationID`` subtype are listed (a filter
        /// an app asks for; pychromecast, catt and go-chromecast list every device).
        package var requiresApplicationSubtype: Bool
        /// The longest interval between two browse queries.
        package var maximumQueryInterval: Duration
        /// Whether a goodbye removes a device at once (`true`) or after one second as in RFC 6762 §10.1.
        package var removesDevicesOnGoodbyeAtOnce: Bool
        /// The most records cached: past it, new records are dropped (a flood stays bounded).
        /// The default holds about 13,000 devices' records (five each).
        package var cacheCapacity: Int
        /// The largest message sent; known answers beyond it go into follow-up messages (TC set).
        package var maximumMessageSize: Int

        package init(
            serviceType: DNSName = MDNSQuerierStateMachine.castServiceType,
            applicationID: String? = nil,
            requiresApplicationSubtype: Bool = false,
            maximumQueryInterval: Duration = .seconds(3600),
            removesDevicesOnGoodbyeAtOnce: Bool = true,
            cacheCapacity: Int = 65_536,
            maximumMessageSize: Int = 1400
        ) {
            self.serviceType = serviceType
            self.applicationID = applicationID
            self.requiresApplicationSubtype = requiresApplicationSubtype
            self.maximumQueryInterval = maximumQueryInterval
            self.removesDevicesOnGoodbyeAtOnce = removesDevicesOnGoodbyeAtOnce
            self.cacheCapacity = cacheCapacity
            self.maximumMessageSize = maximumMessageSize
        }
    }

    /// Something the owner must do.
    package enum Action: Hashable, Sendable {
        /// Multicast this message on every interface.
        case send(DNSMessage)
        /// A device appeared.
        case inserted(CastDevice)
        /// A known device changed (name, status, addresses, …).
        case updated(CastDevice)
        /// A device went away (goodbye, expiry or stop).
        case removed(CastDevice)
    }

    /// `_googlecast._tcp.local`.
    package static let castServiceType = try! DNSName("_googlecast._tcp.local")

    /// The service type queried for PTR records.
    package let browseName: DNSName
    /// The application subtype queried as well, when an app ID is configured.
    package let subtypeName: DNSName?
    /// The names whose PTR records list instances: the subtype alone when it is required.
    private let listingNames: [DNSName]
    package let configuration: Configuration
    private(set) var cache: MDNSRecordCache
    private var random: MDNSRandom
    private var running = false
    private var nextQueryAt: CastInstant?
    private var queryInterval: Duration = .seconds(1)
    /// Whether browse queries go out at the passive pace (see ``setPassive(_:now:)``).
    package private(set) var isPassive = false

    /// The first interval between browse queries in passive mode.
    package static let passiveQueryInterval: Duration = .seconds(60)
    /// The services seen, with the device each one forms, or `nil` when its TXT has no usable `id`.
    private var devices: [DNSName: CastDevice?] = [:]
    private var deviceInputs: [DNSName: DeviceInputs] = [:]

    /// The records a device is built from.
    private struct DeviceInputs: Hashable, Sendable {
        var port: UInt16
        var target: DNSName
        var txt: [[UInt8]]
        var addresses: [IPAddress]
    }
    private var resolving: [DNSName: (at: CastInstant, interval: Duration)] = [:]
    /// The instances whose SRV names each target host, so an address record reaches the
    /// devices it belongs to without a pass over the whole cache. It may keep targets of
    /// records gone since (harmless: an address for them is only cached), and is rebuilt on
    /// each ``tick(now:)``.
    private var instancesByTarget: [DNSName: Set<DNSName>] = [:]

    /// Creates a stopped querier.
    /// - Parameter random: the source of jitter; pass a seeded one in tests.
    package init(configuration: Configuration = Configuration(), random: MDNSRandom = MDNSRandom()) {
        self.configuration = configuration
        self.random = random
        cache = MDNSRecordCache(capacity: configuration.cacheCapacity)
        browseName = configuration.serviceType
        subtypeName = configuration.applicationID.flatMap { appID in
            try? DNSName(labels: [Array("_\(appID)".utf8), Array("_sub".utf8)] + configuration.serviceType.labels)
        }
        if let subtypeName {
            listingNames = configuration.requiresApplicationSubtype ? [subtypeName] : [browseName, subtypeName]
        } else {
            listingNames = [browseName]
        }
    }

    /// The devices known now, by service instance name.
    package var knownDevices: [CastDevice] {
        Self.sorted(devices.keys).compactMap { devices[$0] ?? nil }
    }

    /// Whether the querier is running.
    package var isRunning: Bool { running }

    /// When ``tick(now:)`` must be called next, or `nil` when nothing is scheduled.
    package var nextDeadline: CastInstant? {
        guard running else { return nil }
        return ([nextQueryAt, cache.nextDeadline] + resolving.values.map(\.at)).compactMap { $0 }.min()
    }

    /// Starts browsing: the first query goes out after a random 20–120 ms (RFC 6762 §5.2).
    package mutating func start(now: CastInstant) {
        guard !running else { return }
        running = true
        queryInterval = isPassive ? Self.passiveQueryInterval : .seconds(1)
        nextQueryAt = now + .milliseconds(Int.random(in: 20...120, using: &random))
    }

    /// Switches between the active pace (browse queries after 1 s, 2 s, 4 s … doubling) and
    /// the passive one (after 60 s, 120 s … doubling): passive browsing still sends the first
    /// query, refreshes cached records before they expire and hears announcements, but asks
    /// far less often. Switching to active while running restarts the fast series at once.
    package mutating func setPassive(_ passive: Bool, now: CastInstant) {
        guard passive != isPassive else { return }
        isPassive = passive
        guard running else { return }
        if passive {
            queryInterval = max(queryInterval, Self.passiveQueryInterval)
            if let due = nextQueryAt { nextQueryAt = max(due, now + Self.passiveQueryInterval) }
        } else {
            queryInterval = .seconds(1)
            nextQueryAt = now + .milliseconds(Int.random(in: 20...120, using: &random))
        }
    }

    /// Stops browsing, forgets every record and reports every known device as removed.
    package mutating func stop() -> [Action] {
        guard running else { return [] }
        running = false
        nextQueryAt = nil
        cache.removeAll()
        resolving = [:]
        let removed = knownDevices.map(Action.removed)
        devices = [:]
        deviceInputs = [:]
        return removed
    }

    /// Handles a received message.
    package mutating func receive(_ message: DNSMessage, now: CastInstant) -> [Action] {
        guard running, message.isResponse, message.opcode == 0, message.responseCode == 0 else { return [] }
        let records = message.answers + message.additionals
        // Only the instances this message touches are rebuilt: rebuilding every device for
        // each message made browsing a thousand devices quadratic.
        var touched: Set<DNSName> = []
        // PTRs first, then SRV/TXT, then addresses, so a packet's order does not matter.
        for record in records where record.type == .ptr && (record.name == browseName || record.name == subtypeName) {
            cache.insert(
                record,
                now: now,
                removeGoodbyesAtOnce: configuration.removesDevicesOnGoodbyeAtOnce,
                random: &random
            )
            if case .ptr(let instance) = record.data { touched.insert(instance) }
        }
        for record in records where (record.type == .srv || record.type == .txt) && isInstanceName(record.name) {
            cache.insert(
                record,
                now: now,
                removeGoodbyesAtOnce: configuration.removesDevicesOnGoodbyeAtOnce,
                random: &random
            )
            touched.insert(record.name)
            if case .srv(_, _, _, let target) = record.data, record.ttl > 0 {
                instancesByTarget[target, default: []].insert(record.name)
            }
        }
        for record in records where record.type == .a || record.type == .aaaa {
            guard let instances = instancesByTarget[record.name] else { continue }
            cache.insert(
                record,
                now: now,
                removeGoodbyesAtOnce: configuration.removesDevicesOnGoodbyeAtOnce,
                random: &random
            )
            touched.formUnion(instances)
        }
        let listed = Set(instances())
        var actions = updateDevices(listed: listed, only: touched)
        planResolves(now: now, listed: listed, only: touched)
        actions += sendDueQueries(now: now, refreshes: [])
        return actions
    }

    /// Handles the passing of time: expiry, refresh queries, browse queries and resolve queries.
    package mutating func tick(now: CastInstant) -> [Action] {
        guard running else { return [] }
        _ = cache.expire(now: now)
        let refreshes = cache.takeDueRefreshes(now: now, random: &random)
        rebuildTargets()
        let listed = Set(instances())
        var actions = updateDevices(listed: listed, only: nil)
        planResolves(now: now, listed: listed, only: nil)
        actions += sendDueQueries(now: now, refreshes: refreshes)
        return actions
    }

    // MARK: - Private

    private func isInstanceName(_ name: DNSName) -> Bool {
        name.labels.count == configuration.serviceType.labels.count + 1 && name.hasSuffix(configuration.serviceType)
    }

    private func instances() -> [DNSName] {
        var seen: Set<DNSName> = []
        return listingNames.flatMap { name in
            cache.records(named: name, type: .ptr).compactMap { entry in
                guard case .ptr(let instance) = entry.record.data, isInstanceName(instance),
                    seen.insert(instance).inserted
                else { return nil }
                return instance
            }
        }
    }

    private func service(
        _ instance: DNSName
    ) -> (srv: DNSResourceRecord?, txt: DNSResourceRecord?, addresses: [IPAddress]) {
        let srv = cache.records(named: instance, type: .srv).max { $0.receivedAt < $1.receivedAt }?.record
        let txt = cache.records(named: instance, type: .txt).max { $0.receivedAt < $1.receivedAt }?.record
        var addresses: [IPAddress] = []
        if case .srv(_, _, _, let target)? = srv?.data {
            for entry in cache.records(named: target) {
                switch entry.record.data {
                case .a(let v4): addresses.append(.v4(v4))
                case .aaaa(let v6): addresses.append(.v6(v6))
                default: break
                }
            }
        }
        return (srv, txt, addresses)
    }

    /// The SRV targets of the cache, by target.
    private mutating func rebuildTargets() {
        var targets: [DNSName: Set<DNSName>] = [:]
        for entry in cache.entries {
            if case .srv(_, _, _, let target) = entry.record.data {
                targets[target, default: []].insert(entry.record.name)
            }
        }
        instancesByTarget = targets
    }

    /// Rebuilds the devices of `touched` instances (of every one when `nil`) from the cache
    /// and reports what changed: removals first, then insertions and updates, each in name
    /// order.
    /// - Parameter listed: the instances the cache's PTR records list now.
    private mutating func updateDevices(listed: Set<DNSName>, only touched: Set<DNSName>?) -> [Action] {
        let names = touched ?? listed.union(devices.keys)
        var removed: [(DNSName, CastDevice)] = []
        var changed: [(DNSName, Action)] = []
        for instance in names {
            let old = devices[instance] ?? nil
            var new: CastDevice?? = nil
            if listed.contains(instance) {
                let (srv, txt, addresses) = service(instance)
                if case .srv(_, _, let port, let target)? = srv?.data, case .txt(let strings)? = txt?.data,
                    !addresses.isEmpty
                {
                    let input = DeviceInputs(port: port, target: target, txt: strings, addresses: addresses)
                    // Unchanged records give the same device: skip parsing them again.
                    if deviceInputs[instance] == input, let device = devices[instance] {
                        new = .some(device)
                    } else {
                        new = .some(
                            CastDevice(
                                serviceName: instance.description,
                                hostName: target.description,
                                port: port,
                                addresses: addresses,
                                txt: TXTRecord(strings: strings)
                            )
                        )
                    }
                    deviceInputs[instance] = input
                }
            }
            if let new {
                devices.updateValue(new, forKey: instance)
            } else {
                devices.removeValue(forKey: instance)
                deviceInputs.removeValue(forKey: instance)
            }
            let device = new ?? nil
            if let old, device == nil {
                removed.append((instance, old))
            } else if let device {
                if old == nil {
                    changed.append((instance, .inserted(device)))
                } else if old != device {
                    changed.append((instance, .updated(device)))
                }
            }
        }
        func inNameOrder<T>(_ list: [(DNSName, T)]) -> [T] {
            list.map { ($0.0.description, $0.1) }.sorted { $0.0 < $1.0 }.map(\.1)
        }
        return inNameOrder(removed).map(Action.removed) + inNameOrder(changed)
    }

    /// Names in text order, each converted to text once.
    private static func sorted(_ names: some Sequence<DNSName>) -> [DNSName] {
        names.map { ($0.description, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Tracks instances that lack SRV, TXT or addresses, so queries for them go out with
    /// backoff: of the `touched` instances, or of every one when `nil`.
    private mutating func planResolves(now: CastInstant, listed: Set<DNSName>, only touched: Set<DNSName>?) {
        let names = touched ?? listed.union(resolving.keys)
        for name in names {
            let incomplete: Bool
            if listed.contains(name) {
                let (srv, txt, addresses) = service(name)
                incomplete = srv == nil || txt == nil || addresses.isEmpty
            } else {
                incomplete = false
            }
            if !incomplete {
                resolving[name] = nil
            } else if resolving[name] == nil {
                resolving[name] = (now, .seconds(1))
            }
        }
    }

    private mutating func sendDueQueries(now: CastInstant, refreshes: [DNSResourceRecord]) -> [Action] {
        var questions: [DNSQuestion] = []
        var asked: Set<DNSQuestion> = []
        func ask(_ name: DNSName, _ type: DNSRecordType) {
            let question = DNSQuestion(name: name, type: type)
            if asked.insert(question).inserted { questions.append(question) }
        }
        if let due = nextQueryAt, due <= now {
            for name in listingNames { ask(name, .ptr) }
            nextQueryAt = now + queryInterval
            queryInterval = min(queryInterval * 2, configuration.maximumQueryInterval)
        }
        for record in refreshes { ask(record.name, record.type) }
        for name in Self.sorted(resolving.keys) {
            guard let plan = resolving[name], plan.at <= now else { continue }
            let (srv, txt, addresses) = service(name)
            if srv == nil { ask(name, .srv) }
            if txt == nil { ask(name, .txt) }
            if case .srv(_, _, _, let target)? = srv?.data, addresses.isEmpty {
                ask(target, .a)
                ask(target, .aaaa)
            }
            let next = min(plan.interval * 2, .seconds(60))
            resolving[name] = (now + plan.interval, next)
        }
        guard !questions.isEmpty else { return [] }
        // Known answers: records answering a question with more than half their TTL left.
        var known: [DNSResourceRecord] = []
        for question in questions {
            for entry in cache.records(named: question.name, type: question.type) {
                let remaining = entry.remainingTTL(at: now)
                guard UInt64(remaining) * 2 > UInt64(entry.record.ttl) else { continue }
                var record = entry.record
                record.ttl = remaining
                record.cacheFlush = false
                known.append(record)
            }
        }
        return Self.split(questions: questions, knownAnswers: known, limit: configuration.maximumMessageSize)
            .map(Action.send)
    }

    /// Splits a query that does not fit one message. Questions that do not fit go into
    /// further queries; known answers that do not fit go into follow-up messages, and every
    /// message followed by more known answers has the TC bit set (RFC 6762 §7.2). Sizes are
    /// counted without compression, so every message stays within `limit`.
    static func split(questions: [DNSQuestion], knownAnswers: [DNSResourceRecord], limit: Int) -> [DNSMessage] {
        var messages: [DNSMessage] = []
        var current = DNSMessage.query([])
        var size = DNSMessage.headerSize
        for question in questions {
            let cost = question.name.wireLength + 4
            if size + cost > limit, !current.questions.isEmpty {
                messages.append(current)
                current = DNSMessage.query([])
                size = DNSMessage.headerSize
            }
            current.questions.append(question)
            size += cost
        }
        for record in knownAnswers {
            let cost = record.uncompressedSize
            if size + cost > limit, !current.answers.isEmpty || !current.questions.isEmpty {
                if !current.answers.isEmpty { current.flags |= DNSMessage.truncatedFlag }
                messages.append(current)
                current = DNSMessage.query([])
                size = DNSMessage.headerSize
            }
            current.answers.append(record)
            size += cost
        }
        messages.append(current)
        return messages
    }
}

extension DNSResourceRecord {
    /// The size of the record on the wire without name compression: an upper bound.
    var uncompressedSize: Int {
        let data: Int =
            switch self.data {
            case .a: 4
            case .aaaa: 16
            case .ptr(let target): target.wireLength
            case .srv(_, _, _, let target): 6 + target.wireLength
            case .txt(let strings): strings.isEmpty ? 1 : strings.reduce(0) { $0 + 1 + $1.count }
            case .nsec(let next, let types): next.wireLength + 34 * Set(types.map { $0.rawValue >> 8 }).count
            case .unknown(_, let bytes): bytes.count
            }
        return name.wireLength + 10 + data
    }
}
