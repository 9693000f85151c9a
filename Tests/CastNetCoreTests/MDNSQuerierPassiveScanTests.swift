import CastCore
import CastTime
import Foundation
import Testing

@testable import CastNetCore

/// The passive pace of browse queries (`DiscoveryManager.passiveScan`).
@Suite struct MDNSQuerierPassiveScanTests {
    static let t0 = CastInstant(offset: .seconds(1000))

    /// The instants at which browse (PTR) queries go out until `end`.
    func browseTimes(_ querier: inout MDNSQuerierStateMachine, until end: CastInstant) -> [Duration] {
        var times: [Duration] = []
        while let deadline = querier.nextDeadline, deadline <= end {
            for action in querier.tick(now: deadline) {
                guard case .send(let message) = action,
                    message.questions.contains(DNSQuestion(name: querier.browseName, type: .ptr))
                else { continue }
                times.append(deadline.offset - Self.t0.offset)
            }
        }
        return times
    }

    @Test func passiveBrowsingAsksFirstThenEverySixtySecondsDoubling() {
        var querier = MDNSQuerierStateMachine(random: MDNSRandom(seed: 3))
        querier.setPassive(true, now: Self.t0)
        querier.start(now: Self.t0)
        let times = browseTimes(&querier, until: Self.t0 + .seconds(500))
        #expect(times.count == 4, "first query, then after 60, 120 and 240 s: \(times)")
        #expect(times[0] < .seconds(1))
        #expect(times[1] - times[0] == .seconds(60))
        #expect(times[2] - times[1] == .seconds(120))
        #expect(times[3] - times[2] == .seconds(240))
    }

    @Test func activeBrowsingAsksFarMoreOftenInTheSameTime() {
        var querier = MDNSQuerierStateMachine(random: MDNSRandom(seed: 3))
        querier.start(now: Self.t0)
        let times = browseTimes(&querier, until: Self.t0 + .seconds(500))
        #expect(times.count == 9, "1, 2, 4 … 128 s apart: \(times)")
    }

    @Test func switchingWhileRunningTakesEffectAtOnce() {
        var querier = MDNSQuerierStateMachine(random: MDNSRandom(seed: 3))
        querier.start(now: Self.t0)
        _ = browseTimes(&querier, until: Self.t0 + .seconds(2))
        querier.setPassive(true, now: Self.t0 + .seconds(2))
        #expect(querier.isPassive)
        let passive = browseTimes(&querier, until: Self.t0 + .seconds(61))
        #expect(passive.isEmpty, "no browse query sooner than 60 s after going passive: \(passive)")

        querier.setPassive(false, now: Self.t0 + .seconds(61))
        let active = browseTimes(&querier, until: Self.t0 + .seconds(65))
        #expect(active.count >= 3, "going active restarts the fast series at once: \(active)")
        #expect(active.first.map { $0 < .seconds(62) } == true)
    }

    @Test func passiveWhileStoppedOnlyChangesTheNextStart() {
        var querier = MDNSQuerierStateMachine(random: MDNSRandom(seed: 3))
        querier.setPassive(true, now: Self.t0)
        #expect(querier.nextDeadline == nil)
        querier.setPassive(false, now: Self.t0)
        querier.start(now: Self.t0)
        let times = browseTimes(&querier, until: Self.t0 + .seconds(8))
        #expect(times.count == 4)
    }
}
