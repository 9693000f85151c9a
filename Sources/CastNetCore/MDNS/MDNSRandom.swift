/// A small seeded random number generator (SplitMix64), so state machines that need
/// jitter or random delays are reproducible in tests.
package struct MDNSRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed.
    package init(seed: UInt64) {
        state = seed
    }

    /// Creates a generator seeded from the system generator.
    package init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
