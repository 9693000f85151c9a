import CastSync
import Dispatch
import Testing

@Suite struct HandOffContinuationTests {
    private final class Payload: Sendable {
        let values: [Int]
        init(count: Int) { values = Array(0..<count) }
    }

    @Test func returnsTheValueResumedOnTheSameThread() async {
        let value = await withHandOffContinuation { (continuation: HandOffContinuation<String>) in
            continuation.resume(returning: "ready")
        }
        #expect(value == "ready")
    }

    @Test func returnsObjectsBuiltOnAnotherThread() async {
        let queue = DispatchQueue(label: "HandOffContinuationTests")
        var total = 0
        for round in 1...200 {
            let payload = await withHandOffContinuation { (continuation: HandOffContinuation<Payload>) in
                queue.async { continuation.resume(returning: Payload(count: round)) }
            }
            #expect(payload.values.count == round)
            total += payload.values.reduce(0, +)
        }
        // Σ over n of n(n-1)/2 for n = 1...200.
        #expect(total == (1...200).reduce(0) { $0 + $1 * ($1 - 1) / 2 })
    }

    @Test func resumesWhenTheValueComesAfterTheTaskSuspended() async {
        let gate = DispatchSemaphore(value: 0)
        let value = await withHandOffContinuation { (continuation: HandOffContinuation<[UInt8]>) in
            DispatchQueue.global().async {
                // Give the task time to suspend first; the result does not depend on it.
                _ = gate.wait(timeout: .now() + .milliseconds(20))
                continuation.resume(returning: [1, 2, 3])
            }
        }
        #expect(value == [1, 2, 3])
    }
}
