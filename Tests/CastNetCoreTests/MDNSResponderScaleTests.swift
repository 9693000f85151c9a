import CastCore
import CastTime
import Foundation
import Testing

@testable import CastNetCore

/// One responder serving hundreds of services, as a fleet of virtual devices does.
@Suite struct MDNSResponderScaleTests {
    static let t0 = CastInstant(offset: .seconds(100))
    static let self5353 = UDPEndpoint(address: .v4(IPv4Address(127, 0, 0, 1)), port: 5353)

    static func service(_ index: Int) -> MDNSService {
        let device = CastDevice(
            id: UUID(),
            friendlyName: "Device \(index)",
            modelName: "Chromecast",
            addresses: [.v4(IPv4Address(127, 0, UInt8(1 + index / 250), UInt8(2 + index % 250)))]
        )
        return MDNSService(castDevice: device, applicationIDs: ["CC1AD845", "E8C28D3C"])
    }

    /// Runs the responder until `end`, feeding every multicast it sends back to it as the
    /// loopback interface does; returns what it did.
    static func run(
        _ responder: inout MDNSResponderStateMachine,
        until end: CastInstant
    ) async -> [MDNSResponderStateMachine.Action] {
        var log: [MDNSResponderStateMachine.Action] = []
        while let deadline = responder.nextDeadline, deadline <= end {
            // Seconds of work for 200 services: give the other tests' tasks the cooperative
            // threads between ticks.
            await Task.yield()
            var pending = responder.tick(now: deadline)
            while !pending.isEmpty {
                let action = pending.removeFirst()
                log.append(action)
                if case .send(let message, .multicast) = action {
                    pending += responder.receive(message, from: self5353, now: deadline)
                }
            }
        }
        return log
    }

    @Test(arguments: [1, 50, 200])
    func everyServiceRegistersAndAnswersFitTheLink(count: Int) async throws {
        var responder = MDNSResponderStateMachine(random: MDNSRandom(seed: 7))
        let ids = (0..<count).map { responder.register(Self.service($0), now: Self.t0) }
        let log = await Self.run(&responder, until: Self.t0 + .seconds(10))
        let registered = Set(
            log.compactMap { action -> MDNSResponderStateMachine.ServiceID? in
                if case .registered(let id, _) = action { return id }
                return nil
            }
        )
        #expect(registered == Set(ids))
        #expect(!log.contains { if case .renamed = $0 { true } else { false } })

        // A browse query is answered with every instance, in messages that fit the link.
        let query = DNSMessage.query([DNSQuestion(name: MDNSQuerierStateMachine.castServiceType, type: .ptr)])
        let peer = UDPEndpoint(address: .v4(IPv4Address(127, 0, 0, 9)), port: 5353)
        _ = responder.receive(query, from: peer, now: Self.t0 + .seconds(20))
        let answers = responder.tick(now: Self.t0 + .seconds(21)).compactMap { action -> DNSMessage? in
            if case .send(let message, .multicast) = action { return message }
            return nil
        }
        var instances = Set<DNSName>()
        for message in answers {
            let bytes = try message.encoded()
            #expect(bytes.count <= responder.maximumMessageSize)
            for record in message.answers where record.name == MDNSQuerierStateMachine.castServiceType {
                if case .ptr(let instance) = record.data { instances.insert(instance) }
            }
        }
        #expect(instances.count == count)

        // Shutting down says goodbye to every service, again in messages that fit.
        let goodbyes = responder.shutdown().compactMap { action -> DNSMessage? in
            if case .send(let message, .multicast) = action { return message }
            return nil
        }
        for message in goodbyes {
            #expect(try message.encoded().count <= responder.maximumMessageSize)
            #expect(message.answers.allSatisfy { $0.ttl == 0 })
        }
        let srv = goodbyes.flatMap(\.answers).filter { $0.type == .srv }
        #expect(srv.count == count)
    }
}

extension MDNSResponderScaleTests {
    @Test func truncatedQueryWaitsForTheRestOfItsKnownAnswers() async throws {
        var responder = MDNSResponderStateMachine(random: MDNSRandom(seed: 11))
        for index in 0..<40 { _ = responder.register(Self.service(index), now: Self.t0) }
        _ = await Self.run(&responder, until: Self.t0 + .seconds(10))
        let now = Self.t0 + .seconds(30)
        let browse = DNSMessage.query([DNSQuestion(name: MDNSQuerierStateMachine.castServiceType, type: .ptr)])
        #expect(responder.receive(browse, from: Self.self5353, now: now - .seconds(5)).isEmpty)
        let pointers = responder.tick(now: now - .seconds(4)).flatMap { action -> [DNSResourceRecord] in
            if case .send(let message, .multicast) = action { return message.answers }
            return []
        }.filter { $0.name == MDNSQuerierStateMachine.castServiceType }
        try #require(pointers.count == 40)

        // A querier that knows all but the last instance sends its known answers in two
        // messages, the first with TC set.
        let messages = MDNSQuerierStateMachine.split(
            questions: [DNSQuestion(name: MDNSQuerierStateMachine.castServiceType, type: .ptr)],
            knownAnswers: Array(pointers.dropLast()),
            limit: 1400
        )
        try #require(messages.count >= 2 && messages[0].isTruncated)
        let peer = UDPEndpoint(address: .v4(IPv4Address(127, 0, 0, 9)), port: 5353)
        for message in messages { #expect(responder.receive(message, from: peer, now: now).isEmpty) }
        let deadline = try #require(responder.nextDeadline)
        #expect(deadline >= now + .milliseconds(400))
        let answered = responder.tick(now: deadline).flatMap { action -> [DNSResourceRecord] in
            if case .send(let message, .multicast) = action { return message.answers }
            return []
        }
        #expect(answered == [pointers.last!])
    }
}
