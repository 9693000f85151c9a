/// Per-operation timings taken in many short batches, robust to a shared machine.
struct SampledTiming {
    /// Seconds per operation of each batch, sorted.
    var sorted: [Double]

    var median: Double { Measure.percentile(sorted, 0.5) }
    var p99: Double { Measure.percentile(sorted, 0.99) }
    var best: Double { sorted.first ?? .nan }
}

extension Measure {
    /// Times `samples` batches of `batch` calls of `body` and returns the per-operation
    /// time of each batch. A batch slowed by another process shows in p99, not in the
    /// median.
    static func sampled(
        samples: Int = BenchmarkSettings.count(300, quick: 20),
        batch: Int = BenchmarkSettings.count(500, quick: 50),
        _ body: () throws -> Void
    ) rethrows -> SampledTiming {
        let clock = ContinuousClock()
        for _ in 0..<batch { try body() }
        var times: [Double] = []
        times.reserveCapacity(samples)
        for _ in 0..<samples {
            let start = clock.now
            for _ in 0..<batch { try body() }
            times.append((clock.now - start).seconds / Double(batch))
        }
        return SampledTiming(sorted: times.sorted())
    }
}
