import CastSync
import Dispatch
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct LockedTests {
    private struct Refused: Error, Equatable {
        let value: Int
    }

    @Test func returnsTheClosuresResult() {
        let locked = Locked([1, 2, 3])
        let sum = locked.withLock { numbers in numbers.reduce(0, +) }
        #expect(sum == 6)
    }

    @Test func changesMadeInsideAreKept() {
        let locked = Locked("a")
        locked.withLock { $0 += "b" }
        locked.withLock { $0 += "c" }
        #expect(locked.withLock { $0 } == "abc")
    }

    @Test func anErrorThrownInsidePropagatesAndReleasesTheLock() {
        let locked = Locked(0)
        #expect(throws: Refused(value: 7)) {
            try locked.withLock { (value: inout Int) throws(Refused) -> Void in
                value = 7
                throw Refused(value: value)
            }
        }
        // The change made before the throw stays, and the lock is free again.
        #expect(locked.withLock { $0 } == 7)
    }

    @Test func theThrownErrorKeepsItsType() {
        let locked = Locked(1)
        let result = Result { () throws(Refused) -> Int in
            try locked.withLock { (value: inout Int) throws(Refused) -> Int in
                if value > 0 { throw Refused(value: value) }
                return value
            }
        }
        switch result {
        case .success: Issue.record("expected Refused")
        case .failure(let error): #expect(error.value == 1)
        }
    }

    @Test func excludesOtherThreadsUnderContention() {
        // Read-modify-write in two steps with a yield between them: without exclusion the
        // threads interleave and increments are lost.
        let locked = Locked((count: 0, inside: 0, overlaps: 0))
        let threads = 4
        let rounds = 5_000
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<rounds {
                locked.withLock { state in
                    state.inside += 1
                    if state.inside > 1 { state.overlaps += 1 }
                    let read = state.count
                    sched_yield()
                    state.count = read + 1
                    state.inside -= 1
                }
            }
        }
        let final = locked.withLock { $0 }
        #expect(final.count == threads * rounds)
        #expect(final.overlaps == 0)
    }
}
