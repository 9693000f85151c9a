import CastSync
import CastTestSupport
import Dispatch
import Testing

@testable import CastSender

@Suite struct ListenerSetTests {
    private final class Recorder: Sendable {
        let heard = Locked<[Int]>([])
        var snapshot: [Int] { heard.withLock { $0 } }
    }

    private static func record(_ recorder: Recorder, _ value: Int) {
        recorder.heard.withLock { $0.append(value) }
    }

    /// Waits until everything queued on `queue` so far has run.
    private func drain(_ queue: DispatchQueue) async {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }

    @Test func listenersHearEveryEventInOrderOnTheQueue() async {
        let queue = DispatchQueue(label: "test.listeners")
        let set = ListenerSet<Recorder, Int>(queue: queue)
        let recorder = Recorder()
        set.add(recorder)
        for value in 0..<100 {
            set.emit(value) { listener, event in
                dispatchPrecondition(condition: .onQueue(queue))
                Self.record(listener, event)
            }
        }
        await drain(queue)
        #expect(recorder.snapshot == Array(0..<100))
    }

    /// An event emitted while nobody listens is dropped; a listener added afterwards hears
    /// the events emitted after it was added, in order.
    @Test func eventsNobodyHearsAreDroppedAndLaterOnesStillArrive() async {
        let queue = DispatchQueue(label: "test.listeners.empty")
        let set = ListenerSet<Recorder, Int>(queue: queue)
        set.emit(-1) { listener, event in Self.record(listener, event) }
        let recorder = Recorder()
        set.add(recorder)
        set.emit(1) { listener, event in Self.record(listener, event) }
        set.emit(2) { listener, event in Self.record(listener, event) }
        await drain(queue)
        #expect(recorder.snapshot == [1, 2])
    }

    @Test func afterRunsEvenWithoutListeners() async {
        let queue = DispatchQueue(label: "test.listeners.after")
        let set = ListenerSet<Recorder, Int>(queue: queue)
        let ran = Recorder()
        set.emit(0, { _, _ in }, after: { Self.record(ran, 7) })
        await drain(queue)
        #expect(ran.snapshot == [7])
    }

    @Test func streamsHearEventsInOrder() async throws {
        let queue = DispatchQueue(label: "test.listeners.stream")
        let set = ListenerSet<Recorder, Int>(queue: queue)
        let stream = set.stream()
        for value in 0..<10 { set.emit(value) { _, _ in } }
        await drain(queue)
        set.finish()
        let received = try await withDeadline(.seconds(60), "the stream's events") {
            var values: [Int] = []
            for await value in stream { values.append(value) }
            return values
        }
        #expect(received == Array(0..<10))
    }
}
