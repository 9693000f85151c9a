import CastCrypto
import CastNet
import CastSync

/// TLS loopback figures of the framed Cast connection: an echo server and a client in one
/// process, on the shared event loops.
let tlsBenchmarks = BenchmarkGroup(name: "tls", summary: "TLS loopback round trip and frames per second") {
    let identity = try SelfSignedCertificate.generate(commonName: "cast-bench")
    let echo = try CastListener(address: .loopbackIPv4(), tls: TLSServerConfiguration(identity)) { connection in
        connection.setFrameHandler { frame in try? connection.send(frame) }
    }
    defer { echo.close() }

    // Round trip of one small frame, one at a time.
    let client = try await CastConnection.connect(to: echo.localAddress)
    let body = [UInt8](repeating: 0x61, count: 100)
    var frames = client.frames.makeAsyncIterator()
    let clock = ContinuousClock()
    var samples: [Double] = []
    let trips = BenchmarkSettings.count(6000, quick: 1100)
    for index in 0..<trips {
        let start = clock.now
        try client.send(body)
        guard try await frames.next() != nil else { throw BenchmarkFailure("echo closed") }
        if index >= 1000 { samples.append((clock.now - start).seconds) }
    }
    client.close()
    samples.sort()

    // One-way throughput: frames from a client to a counting server.
    let total = BenchmarkSettings.count(300_000, quick: 20_000)
    let counter = FrameCounter(target: total)
    let sink = try CastListener(address: .loopbackIPv4(), tls: TLSServerConfiguration(identity)) { connection in
        connection.setFrameHandler { _ in counter.increment() }
    }
    defer { sink.close() }
    let sender = try await CastConnection.connect(to: sink.localAddress)
    let start = clock.now
    for batch in 0..<(total / 1000) {
        for _ in 0..<1000 { try sender.send(body) }
        if batch % 4 == 3 { try await sender.flush() }
    }
    await counter.waitUntilDone()
    let elapsed = (clock.now - start).seconds
    sender.close()

    return [
        BenchmarkRow(
            name: "TLS round trip (100 B frame, echo)",
            value: Format.time(seconds: Measure.percentile(samples, 0.5)),
            median: Format.time(seconds: Measure.percentile(samples, 0.5)),
            p99: Format.time(seconds: Measure.percentile(samples, 0.99)),
            note: "\(samples.count) samples, loopback, \(client.tlsVersion ?? "?")"
        ),
        BenchmarkRow(
            name: "TLS frames/s one connection (100 B)",
            value: Format.rate(Double(total) / elapsed),
            note: "\(total) frames, \(Format.bytes(Double(total * 104) / elapsed))/s on the wire"
        ),
    ]
}

/// Counts frames on the server's queue and wakes the benchmark at the target.
final class FrameCounter: Sendable {
    private struct State {
        var count = 0
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let target: Int
    private let state = Locked(State())

    init(target: Int) {
        self.target = target
    }

    func increment() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.count += 1
            guard state.count == target else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func waitUntilDone() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.count >= target { return true }
                state.waiter = continuation
                return false
            }
            if done { continuation.resume() }
        }
    }
}
