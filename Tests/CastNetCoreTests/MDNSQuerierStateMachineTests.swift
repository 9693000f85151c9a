import CastCore
import CastTime
import Foundation
import Testing

@testable import CastNetCore

/// Builds the records a Cast device announces.
struct FakeCastService {
    var label: String
    var id = "f38e268b2fc3268a56b9fa12e75bbb4a"
    var friendlyName = "Living Room"
    var address = IPv4Address(127, 0, 0, 2)
    var port: UInt16 = 8009
    var hostTTL: UInt32 = 120
    var otherTTL: UInt32 = 4500

    var instance: DNSName { try! MDNSQuerierStateMachine.castServiceType.prepending(label) }
    var host: DNSName { try! DNSName("\(id).local") }

    var ptr: DNSResourceRecord {
        DNSResourceRecord(name: MDNSQuerierStateMachine.castServiceType, data: .ptr(instance), ttl: otherTTL)
    }
    var srv: DNSResourceRecord {
        DNSResourceRecord(
            name: instance,
            data: .srv(priority: 0, weight: 0, port: port, target: host),
            ttl: hostTTL,
            cacheFlush: true
        )
    }
    var txt: DNSResourceRecord {
        let record = TXTRecord([
            "id": id, "fn": friendlyName, "md": "Chromecast", "ve": "05", "ca": "4101", "st": "1", "rs": "Backdrop",
        ])
        return DNSResourceRecord(name: instance, data: .txt(record.strings), ttl: otherTTL, cacheFlush: true)
    }
    var a: DNSResourceRecord { DNSResourceRecord(name: host, data: .a(address), ttl: hostTTL, cacheFlush: true) }

    var announcement: DNSMessage { .response(answers: [ptr], additionals: [srv, txt, a]) }
}

extension Array where Element == MDNSQuerierStateMachine.Action {
    var sent: [DNSMessage] {
        compactMap { if case .send(let message) = $0 { message } else { nil } }
    }
    var events: [MDNSQuerierStateMachine.Action] {
        filter { if case .send = $0 { false } else { true } }
    }
}

@Suite struct MDNSQuerierStateMachineTests {
    static let t0 = CastInstant(offset: .seconds(1000))

    func startedQuerier(_ configuration: MDNSQuerierStateMachine.Configuration = .init()) -> MDNSQuerierStateMachine {
        var querier = MDNSQuerierStateMachine(configuration: configuration, random: MDNSRandom(seed: 7))
        querier.start(now: Self.t0)
        return querier
    }

    /// Advances to each deadline up to `end`, collecting what happens and when.
    func run(
        _ querier: inout MDNSQuerierStateMachine,
        until end: CastInstant
    ) -> [(CastInstant, MDNSQuerierStateMachine.Action)] {
        var log: [(CastInstant, MDNSQuerierStateMachine.Action)] = []
        while let deadline = querier.nextDeadline, deadline <= end {
            log += querier.tick(now: deadline).map { (deadline, $0) }
        }
        return log
    }

    @Test func browseQueriesBackOffToOneHour() {
        var querier = startedQuerier()
        let log = run(&querier, until: Self.t0 + .seconds(5 * 3600))
        let times = log.compactMap { time, action -> CastInstant? in
            guard case .send(let message) = action,
                message.questions.contains(DNSQuestion(name: querier.browseName, type: .ptr))
            else { return nil }
            return time
        }
        let first = times[0] - Self.t0
        #expect(first >= .milliseconds(20) && first <= .milliseconds(120))
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(Array(gaps.prefix(13)) == (0..<12).map { Duration.seconds(1 << $0) } + [.seconds(3600)])
        #expect(gaps.dropFirst(12).allSatisfy { $0 == .seconds(3600) })
        #expect(gaps.count >= 15)
    }

    @Test func findsDeviceFromOneResponse() throws {
        var querier = startedQuerier()
        let service = FakeCastService(label: "Chromecast-1")
        let actions = querier.receive(service.announcement, now: Self.t0 + .milliseconds(10))
        let device = try #require(querier.knownDevices.first)
        #expect(actions.events == [.inserted(device)])
        #expect(actions.sent.isEmpty)
        #expect(device.id == CastDevice.parseID(service.id))
        #expect(device.friendlyName == "Living Room")
        #expect(device.modelName == "Chromecast")
        #expect(device.protocolVersion == 5)
        #expect(device.capabilities == [.videoOut, .audioOut, .attenuationOrFixedVolume])
        #expect(device.status == .busy)
        #expect(device.statusText == "Backdrop")
        #expect(device.addresses == [.v4(service.address)])
        #expect(device.port == 8009)
        #expect(device.serviceName == "Chromecast-1._googlecast._tcp.local")
        #expect(device.hostName == "\(service.id).local")
    }

    @Test func queriesListKnownAnswersWithMoreThanHalfTheirTTL() throws {
        var querier = startedQuerier()
        var service = FakeCastService(label: "Chromecast-1")
        service.otherTTL = 100
        _ = querier.receive(service.announcement, now: Self.t0)
        // Browse queries go out at about t0+0.1 s, +1.1, +3.1, +7.1, +15.1, +31.1, +63.1.
        let log = run(&querier, until: Self.t0 + .seconds(70))
        let browse = log.filter { _, action in
            guard case .send(let message) = action else { return false }
            return message.questions.contains { $0.type == .ptr && $0.name == querier.browseName }
        }
        for (time, action) in browse {
            guard case .send(let message) = action else { continue }
            let elapsed = time - Self.t0
            let known = message.answers.filter { $0.type == .ptr }
            if elapsed < .seconds(50) {
                #expect(known.count == 1, "at \(elapsed)")
                #expect(known.first?.ttl ?? 0 <= 100 && known.first?.ttl ?? 0 > 50)
                #expect(known.first?.cacheFlush == false)
            } else {
                #expect(known.isEmpty, "at \(elapsed)")
            }
        }
        #expect(browse.count >= 7)
    }

    @Test func refreshesRecordsAtEightyToNinetyFivePercentThenRemoves() throws {
        var querier = startedQuerier()
        var service = FakeCastService(label: "Chromecast-1")
        service.hostTTL = 100
        _ = querier.receive(service.announcement, now: Self.t0)
        let log = run(&querier, until: Self.t0 + .milliseconds(100_500))
        let srvRefreshes = log.compactMap { time, action -> Duration? in
            guard case .send(let message) = action,
                message.questions.contains(DNSQuestion(name: service.instance, type: .srv))
            else { return nil }
            return time - Self.t0
        }
        #expect(srvRefreshes.count == 4 + 1)  // 80/85/90/95 %, then a resolve query once the SRV is gone
        for (index, elapsed) in srvRefreshes.prefix(4).enumerated() {
            let base = Duration.seconds(80 + 5 * index)
            #expect(elapsed >= base && elapsed <= base + .seconds(2), "refresh \(index) at \(elapsed)")
        }
        let removals = log.filter { if case .removed = $0.1 { true } else { false } }
        #expect(removals.count == 1)
        #expect(removals.first.map { $0.0 - Self.t0 } == .seconds(100))
        #expect(querier.knownDevices.isEmpty)
    }

    @Test func answeredRefreshKeepsTheDevice() {
        var querier = startedQuerier()
        var service = FakeCastService(label: "Chromecast-1")
        service.hostTTL = 100
        _ = querier.receive(service.announcement, now: Self.t0)
        var log = run(&querier, until: Self.t0 + .seconds(83))
        #expect(
            log.contains { if case .send(let m) = $0.1 { m.questions.contains { $0.type == .srv } } else { false } }
        )
        _ = querier.receive(service.announcement, now: Self.t0 + .seconds(83))
        log = run(&querier, until: Self.t0 + .seconds(150))
        #expect(!log.contains { if case .removed = $0.1 { true } else { false } })
        #expect(querier.knownDevices.count == 1)
    }

    @Test func goodbyeRemovesDeviceAtOnce() {
        var querier = startedQuerier()
        var service = FakeCastService(label: "Chromecast-1")
        _ = querier.receive(service.announcement, now: Self.t0)
        let device = querier.knownDevices[0]
        service.otherTTL = 0
        let actions = querier.receive(.response(answers: [service.ptr]), now: Self.t0 + .seconds(5))
        #expect(actions.events == [.removed(device)])
        #expect(querier.knownDevices.isEmpty)
    }

    @Test func goodbyeRemovesDeviceAfterOneSecondWhenConfigured() {
        var querier = startedQuerier(.init(removesDevicesOnGoodbyeAtOnce: false))
        var service = FakeCastService(label: "Chromecast-1")
        _ = querier.receive(service.announcement, now: Self.t0)
        service.otherTTL = 0
        let now = Self.t0 + .seconds(5)
        #expect(querier.receive(.response(answers: [service.ptr]), now: now).events.isEmpty)
        let log = run(&querier, until: now + .seconds(2))
        let removals = log.filter { if case .removed = $0.1 { true } else { false } }
        #expect(removals.map { $0.0 } == [now + .seconds(1)])
    }

    /// Each message rebuilds only the devices it touches: a thousand announcements give a
    /// thousand insertions, one each, and a goodbye or a TXT change reports that device alone.
    @Test func aMessageReportsOnlyTheDevicesItTouches() throws {
        var querier = startedQuerier()
        var services: [FakeCastService] = []
        for index in 0..<1000 {
            let block = UInt8(1 + index / 250)
            let host = UInt8(2 + index % 250)
            var service = FakeCastService(label: "Chromecast-\(index)")
            service.id = String(format: "%032x", index + 1)
            service.friendlyName = "Device \(index)"
            service.address = IPv4Address(127, 0, block, host)
            services.append(service)
        }
        var inserted: [String?] = []
        for (index, service) in services.enumerated() {
            let events = querier.receive(service.announcement, now: Self.t0 + .milliseconds(index)).events
            for case .inserted(let device) in events { inserted.append(device.friendlyName) }
            #expect(events.count == 1)
        }
        #expect(inserted == services.map { Optional($0.friendlyName) })
        #expect(querier.knownDevices.count == 1000)

        var renamed = services[500]
        renamed.friendlyName = "Renamed"
        let updated = querier.receive(.response(answers: [renamed.txt]), now: Self.t0 + .seconds(2)).events
        #expect(updated.count == 1)
        if case .updated(let device)? = updated.first { #expect(device.friendlyName == "Renamed") }

        var goodbye = services[7].ptr
        goodbye.ttl = 0
        let removed = querier.receive(.response(answers: [goodbye]), now: Self.t0 + .seconds(3)).events
        #expect(removed.count == 1)
        if case .removed(let device)? = removed.first { #expect(device.friendlyName == "Device 7") }
        #expect(querier.knownDevices.count == 999)
        #expect(!querier.knownDevices.contains { $0.friendlyName == "Device 7" })
    }

    @Test func asksForMissingRecordsWhenPTRArrivesAlone() throws {
        var querier = startedQuerier()
        let service = FakeCastService(label: "Chromecast-1")
        var actions = querier.receive(.response(answers: [service.ptr]), now: Self.t0)
        #expect(actions.events.isEmpty)
        let ask = try #require(actions.sent.first)
        #expect(
            Set(ask.questions) == [
                DNSQuestion(name: service.instance, type: .srv), DNSQuestion(name: service.instance, type: .txt),
            ]
        )
        actions = querier.receive(.response(answers: [service.srv, service.txt]), now: Self.t0 + .milliseconds(10))
        #expect(actions.events.isEmpty)
        // The address query waits for the resolve backoff (1 s after the first resolve query).
        let log = run(&querier, until: Self.t0 + .milliseconds(1010))
        let addressQuery = log.compactMap {
            if case .send(let m) = $0.1, m.questions.contains(where: { $0.type == .a }) { m } else { nil }
        }
        #expect(
            addressQuery.first.map { Set($0.questions.filter { $0.name == service.host }) } == [
                DNSQuestion(name: service.host, type: .a), DNSQuestion(name: service.host, type: .aaaa),
            ]
        )
        actions = querier.receive(.response(answers: [service.a]), now: Self.t0 + .seconds(2))
        #expect(actions.events.count == 1)
        #expect(querier.knownDevices.first?.addresses == [.v4(service.address)])
    }

    @Test func asksForTheApplicationSubtypeAndListsEveryDevice() throws {
        var querier = startedQuerier(.init(applicationID: "CC1AD845"))
        let subtype = try #require(querier.subtypeName)
        #expect(subtype.description == "_CC1AD845._sub._googlecast._tcp.local")
        #expect(querier.browseName == MDNSQuerierStateMachine.castServiceType)
        let log = run(&querier, until: Self.t0 + .milliseconds(200))
        let query = try #require(log.first.flatMap { if case .send(let m) = $0.1 { m } else { nil } })
        #expect(
            query.questions == [
                DNSQuestion(name: querier.browseName, type: .ptr), DNSQuestion(name: subtype, type: .ptr),
            ]
        )
        // A device that advertises only the plain type is listed …
        let plain = FakeCastService(label: "Chromecast-1")
        #expect(querier.receive(plain.announcement, now: Self.t0 + .seconds(1)).events.count == 1)
        // … and so is one known only through the subtype, once.
        var other = FakeCastService(label: "Chromecast-2", id: "0123456789abcdef0123456789abcdef")
        other.address = IPv4Address(127, 0, 0, 3)
        let subtypePTR = DNSResourceRecord(name: subtype, data: .ptr(other.instance), ttl: 4500)
        let actions = querier.receive(
            .response(answers: [subtypePTR], additionals: [other.srv, other.txt, other.a]),
            now: Self.t0 + .seconds(1)
        )
        #expect(actions.events.count == 1)
        _ = querier.receive(other.announcement, now: Self.t0 + .seconds(2))
        #expect(querier.knownDevices.count == 2)
    }

    @Test func aRequiredSubtypeFiltersDevices() throws {
        var querier = startedQuerier(.init(applicationID: "CC1AD845", requiresApplicationSubtype: true))
        let subtype = try #require(querier.subtypeName)
        let log = run(&querier, until: Self.t0 + .milliseconds(200))
        let query = try #require(log.first.flatMap { if case .send(let m) = $0.1 { m } else { nil } })
        #expect(query.questions == [DNSQuestion(name: subtype, type: .ptr)])
        // The plain type alone does not list a device …
        let service = FakeCastService(label: "Chromecast-1")
        #expect(querier.receive(service.announcement, now: Self.t0 + .seconds(1)).events.isEmpty)
        // … the subtype does.
        let subtypePTR = DNSResourceRecord(name: subtype, data: .ptr(service.instance), ttl: 4500)
        #expect(querier.receive(.response(answers: [subtypePTR]), now: Self.t0 + .seconds(1)).events.count == 1)
    }

    @Test func ignoresServicesWithoutParseableID() {
        var querier = startedQuerier()
        var service = FakeCastService(label: "Other")
        service.id = "not-a-uuid"
        #expect(querier.receive(service.announcement, now: Self.t0).events.isEmpty)
        #expect(querier.knownDevices.isEmpty)
    }

    @Test func changedTXTUpdatesDevice() throws {
        var querier = startedQuerier()
        var service = FakeCastService(label: "Chromecast-1")
        _ = querier.receive(service.announcement, now: Self.t0)
        service.friendlyName = "Kitchen"
        let actions = querier.receive(.response(answers: [service.txt]), now: Self.t0 + .seconds(3))
        let device = try #require(querier.knownDevices.first)
        #expect(device.friendlyName == "Kitchen")
        #expect(actions.events == [.updated(device)])
        // The old TXT is flushed one second later without another event.
        let log = run(&querier, until: Self.t0 + .seconds(5))
        #expect(log.filter { if case .send = $0.1 { false } else { true } }.isEmpty)
        #expect(querier.cache.records(named: service.instance, type: .txt).count == 1)
    }

    @Test func splitsLongKnownAnswerListsWithTruncationBit() {
        var querier = startedQuerier()
        for index in 0..<60 {
            let id = String(repeating: "0", count: 30) + String(format: "%02d", index)
            let service = FakeCastService(label: "Chromecast-with-a-long-name-\(index)", id: id)
            _ = querier.receive(service.announcement, now: Self.t0)
        }
        #expect(querier.knownDevices.count == 60)
        let log = run(&querier, until: Self.t0 + .milliseconds(200))
        let messages = log.compactMap { if case .send(let m) = $0.1 { m } else { nil } }
        #expect(messages.count > 1)
        #expect(messages.dropLast().allSatisfy { $0.isTruncated })
        #expect(messages.last?.isTruncated == false)
        #expect(messages.reduce(0) { $0 + $1.answers.count } == 60)
        #expect(messages.allSatisfy { (try? $0.encoded().count) ?? .max <= 1400 })
        #expect(messages.dropFirst().allSatisfy { $0.questions.isEmpty })
    }

    @Test func stopReportsRemovals() {
        var querier = startedQuerier()
        _ = querier.receive(FakeCastService(label: "A").announcement, now: Self.t0)
        let actions = querier.stop()
        #expect(actions.count == 1)
        #expect(querier.nextDeadline == nil)
        #expect(querier.receive(FakeCastService(label: "A").announcement, now: Self.t0).isEmpty)
    }
}
