/// The bytes libFuzzer passes to `LLVMFuzzerTestOneInput`.
public enum FuzzInput {
    /// Copies libFuzzer's input into an array and runs `body` on it.
    /// - Parameters:
    ///   - start: the input, `nil` when it is empty.
    ///   - count: its length.
    ///   - body: the test; it returns nothing and reports failures through ``FuzzProperty``.
    /// - Returns: 0, the only value libFuzzer accepts from a test.
    public static func run(_ start: UnsafePointer<UInt8>?, _ count: Int, _ body: ([UInt8]) -> Void) -> CInt {
        let bytes: [UInt8] = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
        body(bytes)
        return 0
    }
}

/// A deterministic stream of chunk sizes drawn from the input itself, so that one input
/// always splits the same way and a saved crash reproduces.
public struct ChunkSizes: Sendable {
    private var state: UInt64

    /// Creates a stream seeded from the bytes.
    public init(seed bytes: [UInt8]) {
        // FNV-1a over the bytes, then SplitMix64 steps.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        state = hash
    }

    /// The next chunk size, between 1 and `limit` and biased towards small sizes.
    public mutating func next(limit: Int) -> Int {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        z ^= z >> 31
        let ceilings = [1, 3, 7, 16, 64, 512, 4096, 70_000]
        let ceiling = min(limit, ceilings[Int(z % UInt64(ceilings.count))])
        return 1 + Int((z >> 8) % UInt64(max(ceiling, 1)))
    }
}

/// What `LLVMFuzzerInitialize` receives: pointers to `argc` and `argv`, which a target may
/// rewrite and these targets leave alone.
public typealias FuzzArguments = UnsafeMutableRawPointer?
