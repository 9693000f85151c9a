import CastSync
import Observation
import Testing

@testable import CastSenderUI

/// A model's broadcaster publishes for the whole life of the app: every publish must cost the
/// same, however many came before.
@Suite struct StateBroadcasterTests {
    @Observable final class Model: @unchecked Sendable {
        // @unchecked: `value` is only set before the broadcaster is bound, in this test.
        var value = 0
    }

    /// Observation hears a publish after 100,000 others, which neither slowed down nor built up
    /// (a bound announcement held as `Locked`'s bare function state gained two thunks per
    /// publish and overflowed the stack).
    @Test func manyPublishesStayFlat() {
        let model = Model()
        let broadcaster = StateBroadcaster<Int>()
        broadcaster.bind(model, \Model.value)
        let heard = Locked(0)
        func observeOnce() {
            withObservationTracking {
                broadcaster.access(model, \Model.value)
            } onChange: {
                heard.withLock { $0 += 1 }
            }
        }
        for index in 0..<100_000 { broadcaster.publish(index) }
        observeOnce()
        broadcaster.publish(-1)
        #expect(heard.withLock { $0 } == 1)
        observeOnce()
        broadcaster.publish(-2)
        #expect(heard.withLock { $0 } == 2)
    }
}
