import CastCore
import CastTestSupport
import CastTime
import Foundation
import Testing

@testable import CastNetCore

@Suite struct MDNSResponderStateMachineTests {
    static let t0 = CastInstant(offset: .seconds(500))
    static let peer = UDPEndpoint(address: .v4(IPv4Address(127, 0, 0, 9)), port: 5353)
    static let deviceID = UUID(uuidString: "F38E268B-2FC3-268A-56B9-FA12E75BBB4A")!

    static let otherID = UUID(uuidString: "00000000-0000-0000-0000-0000000000AB")!

    static func service(name: String = "Living Room", subtypes: [String] = [], id: UUID = deviceID) -> MDNSService {
        let device = CastDevice(
            id: id,
            friendlyName: name,
            modelName: "Chromecast",
            addresses: [.v4(IPv4Address(127, 0, 0, id == deviceID ? 2 : 3))]
        )
        return MDNSService(castDevice: device, applicationIDs: subtypes)
    }

    typealias Action = MDNSResponderStateMachine.Action

    func run(_ responder: inout MDNSResponderStateMachine, until end: CastInstant) -> [(CastInstant, Action)] {
        var log: [(CastInstant, Action)] = []
        while let deadline = responder.nextDeadline, deadline <= end {
            log += responder.tick(now: deadline).map { (deadline, $0) }
        }
        return log
    }

    func established(
        _ service: MDNSService = service()
    ) -> (MDNSResponderStateMachine, MDNSResponderStateMachine.ServiceID) {
        var responder = MDNSResponderStateMachine(random: MDNSRandom(seed: 3))
        let id = responder.register(service, now: Self.t0)
        _ = run(&responder, until: Self.t0 + .seconds(5))
        return (responder, id)
    }

    @Test func probesThreeTimesThenAnnouncesTwice() throws {
        var responder = MDNSResponderStateMachine(random: MDNSRandom(seed: 3))
        let id = responder.register(Self.service(), now: Self.t0)
        let log = run(&responder, until: Self.t0 + .seconds(10))
        let sends = log.compactMap { time, action -> (Duration, DNSMessage)? in
            if case .send(let message, .multicast) = action { (time - Self.t0, message) } else { nil }
        }
        try #require(sends.count == 5)
        let probes = sends.prefix(3)
        #expect(probes[0].0 <= .milliseconds(250))
        #expect(probes[1].0 - probes[0].0 == .milliseconds(250))
        #expect(probes[2].0 - probes[1].0 == .milliseconds(250))
        for (index, (_, probe)) in probes.enumerated() {
            #expect(!probe.isResponse)
            #expect(probe.questions.allSatisfy { $0.type == .any && $0.unicastResponse == (index == 0) })
            #expect(
                Set(probe.questions.map(\.name.description)) == [
                    "Living Room._googlecast._tcp.local", "f38e268b2fc3268a56b9fa12e75bbb4a.local",
                ]
            )
            #expect(Set(probe.authorities.map(\.type)) == [.srv, .txt, .a])
        }
        #expect(sends[3].0 - sends[2].0 == .milliseconds(250))
        #expect(sends[4].0 - sends[3].0 == .seconds(1))
        for (_, announcement) in sends.suffix(2) {
            #expect(announcement.isResponse)
            let types = announcement.answers.map(\.type)
            #expect(types.filter { $0 == .ptr }.count == 2)
            #expect(Set(types) == [.ptr, .srv, .txt, .a])
            #expect(announcement.answers.filter { $0.type != .ptr }.allSatisfy { $0.cacheFlush })
        }
        #expect(log.contains { $0.1 == .registered(id, name: "Living Room") })
        #expect(responder.nextDeadline == nil)
    }

    @Test func answersSharedRecordsAfterRandomDelayWithAdditionals() throws {
        var (responder, _) = established()
        let query = DNSMessage.query([DNSQuestion(name: MDNSQuerierStateMachine.castServiceType, type: .ptr)])
        let now = Self.t0 + .seconds(10)
        #expect(responder.receive(query, from: Self.peer, now: now).isEmpty)
        let deadline = try #require(responder.nextDeadline)
        #expect(deadline - now >= .milliseconds(20) && deadline - now <= .milliseconds(120))
        let actions = responder.tick(now: deadline)
        guard case .send(let response, .multicast)? = actions.first else {
            Issue.record("no response: \(actions)")
            return
        }
        #expect(response.answers.map(\.type) == [.ptr])
        #expect(Set(response.additionals.map(\.type)) == [.srv, .txt, .a])
    }

    @Test func answersUniqueRecordsAtOnce() {
        var (responder, id) = established()
        let name = responder.serviceName(of: id)!
        let query = DNSMessage.query([DNSQuestion(name: name, type: .srv)])
        let actions = responder.receive(query, from: Self.peer, now: Self.t0 + .seconds(10))
        guard case .send(let response, .multicast)? = actions.first else {
            Issue.record("no response: \(actions)")
            return
        }
        #expect(response.answers.map(\.type) == [.srv])
        #expect(response.additionals.map(\.type) == [.a])
    }

    @Test func repliesByUnicastToQUQuestions() {
        var (responder, id) = established()
        let query = DNSMessage.query([
            DNSQuestion(name: responder.serviceName(of: id)!, type: .txt, unicastResponse: true)
        ])
        let actions = responder.receive(query, from: Self.peer, now: Self.t0 + .seconds(10))
        guard case .send(let response, .unicast(let destination))? = actions.first else {
            Issue.record("no unicast response: \(actions)")
            return
        }
        #expect(destination == Self.peer)
        #expect(response.answers.map(\.type) == [.txt])
    }

    @Test func multicastsQUAnswersNotMulticastInTheLastQuarterTTL() {
        var (responder, id) = established()
        // SRV has a TTL of 120 s; its last announcement was about 2 s after t0.
        let query = DNSMessage.query([
            DNSQuestion(name: responder.serviceName(of: id)!, type: .srv, unicastResponse: true)
        ])
        let late = responder.receive(query, from: Self.peer, now: Self.t0 + .seconds(60))
        guard case .send(let response, .multicast)? = late.first else {
            Issue.record("expected a multicast answer: \(late)")
            return
        }
        #expect(response.answers.map(\.type) == [.srv])
        // Now it was multicast recently, so the next QU question is answered by unicast.
        let soon = responder.receive(query, from: Self.peer, now: Self.t0 + .seconds(62))
        #expect(soon.map { if case .send(_, .unicast(Self.peer)) = $0 { true } else { false } } == [true])
    }

    @Test func multicastsARecordAtMostOncePerSecond() {
        var (responder, id) = established()
        let query = DNSMessage.query([DNSQuestion(name: responder.serviceName(of: id)!, type: .srv)])
        #expect(responder.receive(query, from: Self.peer, now: Self.t0 + .seconds(10)).count == 1)
        #expect(responder.receive(query, from: Self.peer, now: Self.t0 + .milliseconds(10_500)).isEmpty)
        #expect(responder.receive(query, from: Self.peer, now: Self.t0 + .milliseconds(11_100)).count == 1)
    }

    @Test func randomMessagesNeverTrapTheStateMachines() async throws {
        let (initial, _) = established(Self.service(subtypes: ["CC1AD845"]))
        let seeds = try [
            FakeCastService(label: "Chromecast-1").announcement.encoded(),
            DNSMessage.query(
                [DNSQuestion(name: MDNSQuerierStateMachine.castServiceType, type: .ptr, unicastResponse: true)],
                knownAnswers: [FakeCastService(label: "Living Room").ptr]
            ).encoded(),
        ]
        let peer = Self.peer
        let start = Self.t0
        let (handled, cacheCount, cacheCapacity) = try await offThePool {
            var responder = initial
            var querier = MDNSQuerierStateMachine(random: MDNSRandom(seed: 11))
            querier.start(now: start)
            var random = MDNSRandom(seed: 99)
            var now = start
            var handled = 0
            for round in 0..<5_000 {
                var bytes = seeds[round % seeds.count]
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
                guard var message = try? DNSMessage(decoding: bytes) else { continue }
                if round % 7 == 0 { message.flags ^= 0x8000 }
                handled += 1
                now = now + .milliseconds(Int.random(in: 0...400, using: &random))
                let port: UInt16 = round % 5 == 0 ? 40_000 : 5353
                _ = responder.receive(message, from: UDPEndpoint(address: peer.address, port: port), now: now)
                _ = querier.receive(message, now: now)
                if let deadline = responder.nextDeadline, deadline <= now { _ = responder.tick(now: now) }
                if let deadline = querier.nextDeadline, deadline <= now { _ = querier.tick(now: now) }
            }
            return (handled, querier.cache.count, querier.configuration.cacheCapacity)
        }
        #expect(handled > 300)
        #expect(cacheCount <= cacheCapacity)
    }

    @Test func repliesToLegacyQueriersOnTheirPort() {
        var (responder, _) = established()
        let legacy = UDPEndpoint(address: .v4(IPv4Address(127, 0, 0, 1)), port: 40_000)
        var query = DNSMessage.query([DNSQuestion(name: MDNSQuerierStateMachine.castServiceType, type: .ptr)])
        query.id = 0x1234
        let actions = responder.receive(query, from: legacy, now: Self.t0 + .seconds(10))
        guard case .send(let response, .unicast(let destination))? = actions.first else {
            Issue.record("no unicast response: \(actions)")
            return
        }
        #expect(destination == legacy)
        #expect(response.id == 0x1234)
        #expect(response.questions == query.questions)
        #expect(response.answers.allSatisfy { $0.ttl <= 10 && !$0.cacheFlush })
        #expect(!response.answers.isEmpty)
    }

    @Test func honoursKnownAnswers() {
        var (responder, id) = established()
        let instance = responder.serviceName(of: id)!
        func query(knownTTL: UInt32) -> DNSMessage {
            .query(
                [DNSQuestion(name: MDNSQuerierStateMachine.castServiceType, type: .ptr)],
                knownAnswers: [
                    DNSResourceRecord(
                        name: MDNSQuerierStateMachine.castServiceType,
                        data: .ptr(instance),
                        ttl: knownTTL
                    )
                ]
            )
        }
        let now = Self.t0 + .seconds(10)
        #expect(responder.receive(query(knownTTL: 4000), from: Self.peer, now: now).isEmpty)
        #expect(responder.nextDeadline == nil)
        _ = responder.receive(query(knownTTL: 100), from: Self.peer, now: now)
        let log = run(&responder, until: now + .seconds(1))
        #expect(log.count == 1)
    }

    @Test func advertisesAndWithdrawsApplicationSubtypes() throws {
        var (responder, id) = established(Self.service(subtypes: ["CC1AD845"]))
        let subtype = try DNSName("_CC1AD845._sub._googlecast._tcp.local")
        _ = responder.receive(
            .query([DNSQuestion(name: subtype, type: .ptr)]),
            from: Self.peer,
            now: Self.t0 + .seconds(10)
        )
        let log = run(&responder, until: Self.t0 + .seconds(11))
        guard case .send(let response, _)? = log.first?.1 else {
            Issue.record("no answer for the subtype")
            return
        }
        #expect(
            response.answers == [
                DNSResourceRecord(name: subtype, data: .ptr(responder.serviceName(of: id)!), ttl: 4500)
            ]
        )
        let actions = responder.update(id, to: Self.service(subtypes: []), now: Self.t0 + .seconds(20))
        guard case .send(let goodbye, .multicast)? = actions.first else {
            Issue.record("no goodbye")
            return
        }
        #expect(goodbye.answers.map(\.name) == [subtype])
        #expect(goodbye.answers.allSatisfy { $0.ttl == 0 })
    }

    @Test func sendsGoodbyesAtShutdown() {
        var (responder, _) = established()
        let actions = responder.shutdown()
        guard case .send(let goodbye, .multicast)? = actions.first else {
            Issue.record("no goodbye")
            return
        }
        #expect(Set(goodbye.answers.map(\.type)) == [.ptr, .srv, .txt, .a])
        #expect(goodbye.answers.allSatisfy { $0.ttl == 0 })
        #expect(responder.nextDeadline == nil)
    }

    @Test func renamesWhenAnotherResponderHoldsTheName() {
        var network = SimulatedNetwork(start: Self.t0)
        let first = network.addResponder(seed: 1)
        network.register(Self.service(), on: first)
        network.run(for: .seconds(5))
        let second = network.addResponder(seed: 2)
        network.register(Self.service(id: Self.otherID), on: second)
        network.run(for: .seconds(5))
        #expect(network.names(first) == ["Living Room"])
        #expect(network.names(second) == ["Living Room (2)"])
        #expect(network.renames.contains { $0 == (second, "Living Room", "Living Room (2)") })
    }

    @Test func simultaneousProbesEndWithDistinctNames() {
        var network = SimulatedNetwork(start: Self.t0)
        let first = network.addResponder(seed: 1)
        let second = network.addResponder(seed: 1)  // same seed: both probe at the same instants
        network.register(Self.service(), on: first)
        network.register(Self.service(id: Self.otherID), on: second)
        network.run(for: .seconds(10))
        let names = network.names(first) + network.names(second)
        #expect(Set(names) == ["Living Room", "Living Room (2)"])
    }

    @Test func oneResponderServesManyServices() {
        var responder = MDNSResponderStateMachine(random: MDNSRandom(seed: 5))
        let ids = (0..<3).map { _ in responder.register(Self.service(), now: Self.t0) }
        _ = run(&responder, until: Self.t0 + .seconds(5))
        #expect(
            ids.compactMap { responder.instanceName(of: $0) } == ["Living Room", "Living Room (2)", "Living Room (3)"]
        )
    }

    @Test func querierFindsResponderThroughSimulatedNetwork() throws {
        var network = SimulatedNetwork(start: Self.t0)
        let responder = network.addResponder(seed: 1)
        network.register(Self.service(subtypes: ["CC1AD845"]), on: responder)
        network.querier = MDNSQuerierStateMachine(
            configuration: .init(applicationID: "CC1AD845"),
            random: MDNSRandom(seed: 9)
        )
        network.querier?.start(now: Self.t0)
        network.run(for: .seconds(5))
        let device = try #require(network.querier?.knownDevices.first)
        #expect(device.friendlyName == "Living Room")
        #expect(device.id == Self.deviceID)
        #expect(device.addresses == [.v4(IPv4Address(127, 0, 0, 2))])
        network.shutdown(responder)
        #expect(network.querier?.knownDevices.isEmpty == true)
    }
}

/// Responders (and a querier) exchanging messages without sockets, on one manual clock.
struct SimulatedNetwork {
    var now: CastInstant
    var responders: [MDNSResponderStateMachine] = []
    var ids: [[MDNSResponderStateMachine.ServiceID]] = []
    var querier: MDNSQuerierStateMachine?
    var renames: [(Int, String, String)] = []

    init(start: CastInstant) {
        now = start
    }

    mutating func addResponder(seed: UInt64) -> Int {
        responders.append(MDNSResponderStateMachine(random: MDNSRandom(seed: seed)))
        ids.append([])
        return responders.count - 1
    }

    mutating func register(_ service: MDNSService, on index: Int, address: IPv4Address? = nil) {
        var service = service
        if let address { service.addresses = [.v4(address)] }
        ids[index].append(responders[index].register(service, now: now))
    }

    func names(_ index: Int) -> [String] { ids[index].compactMap { responders[index].instanceName(of: $0) } }

    mutating func shutdown(_ index: Int) {
        deliver(responders[index].shutdown(), from: index)
    }

    mutating func run(for duration: Duration) {
        let end = now + duration
        while true {
            let deadlines = responders.compactMap(\.nextDeadline) + [querier?.nextDeadline].compactMap { $0 }
            guard let next = deadlines.min(), next <= end else { break }
            now = next
            for index in responders.indices where responders[index].nextDeadline.map({ $0 <= now }) == true {
                deliver(responders[index].tick(now: now), from: index)
            }
            if let deadline = querier?.nextDeadline, deadline <= now, let actions = querier?.tick(now: now) {
                for case .send(let message) in actions { broadcast(message, from: nil) }
            }
        }
        now = end
    }

    mutating func deliver(_ actions: [MDNSResponderStateMachine.Action], from index: Int) {
        for action in actions {
            switch action {
            case .send(let message, _): broadcast(message, from: index)
            case .renamed(_, let from, let to): renames.append((index, from, to))
            case .registered: break
            }
        }
    }

    /// Every message reaches every other node (unicast replies included, as on one shared link).
    mutating func broadcast(_ message: DNSMessage, from sender: Int?) {
        let source = UDPEndpoint(address: .v4(IPv4Address(127, 0, 0, UInt8((sender ?? 100) + 1))), port: 5353)
        for index in responders.indices where index != sender {
            deliver(responders[index].receive(message, from: source, now: now), from: index)
        }
        if sender != nil, let actions = querier?.receive(message, now: now) {
            for case .send(let query) in actions { broadcast(query, from: nil) }
        }
    }
}
