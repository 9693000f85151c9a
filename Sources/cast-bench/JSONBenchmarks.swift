import CastCore
import Foundation

/// Decoding and encoding of JSON message payloads on one core.
let jsonBenchmarks = BenchmarkGroup(name: "json", summary: "MEDIA_STATUS payload decodes per second and µs per decode")
{
    let payload = mediaStatusFixture
    let bytes = Array(payload.utf8)
    let size = Format.bytes(Double(bytes.count))

    // Check once that every path decodes the fixture to the same value.
    guard case .mediaStatus(let expected) = try MediaMessage(jsonString: payload) else {
        throw BenchmarkFailure(description: "fixture is not a MEDIA_STATUS")
    }
    let foundationDecoder = JSONDecoder()
    let viaFoundation = try foundationDecoder.decode(MediaStatusMessage.self, from: Data(bytes))
    guard viaFoundation == expected else { throw BenchmarkFailure(description: "Foundation result differs") }

    var rows: [BenchmarkRow] = []
    /// Adds a row; `value` turns the median seconds per operation into the headline figure
    /// (operations per second unless given).
    func row(
        _ name: String,
        target: (Double) -> String = { _ in "" },
        value: (Double) -> String = { Format.rate(1 / $0) },
        _ body: () throws -> Void
    ) throws {
        let samples = try CPUTime.samples(body)
        let median = Measure.percentile(samples, 0.5)
        rows.append(
            BenchmarkRow(
                name: name,
                value: value(median),
                median: Format.time(seconds: median),
                p99: Format.time(seconds: Measure.percentile(samples, 0.99)),
                note: "per op, thread CPU time, \(size), 1 core\(target(median))"
            )
        )
    }
    func fixed(_ text: String) -> (Double) -> String { { _ in text } }

    try row("MEDIA_STATUS decode (MediaMessage)", target: fixed(", target ≤ 10 µs")) {
        _ = try MediaMessage(jsonString: payload)
    }
    try row("MEDIA_STATUS decode (JSONPayloadDecoder)") {
        _ = try JSONPayloadDecoder().decode(MediaStatusMessage.self, from: bytes)
    }
    // The same decoder with the hand-written TokenDecodable layer off: Codable's synthesized
    // conformances over the same parsed tokens. The gap is what the ~160 hand-written
    // conformances buy.
    var codableDecoder = JSONPayloadDecoder()
    codableDecoder.usesTokenDecodable = false
    guard try codableDecoder.decode(MediaStatusMessage.self, from: bytes) == expected else {
        throw BenchmarkFailure(description: "Codable-over-tokens result differs")
    }
    try row("MEDIA_STATUS decode (Codable over tokens)") {
        _ = try codableDecoder.decode(MediaStatusMessage.self, from: bytes)
    }
    try row("MEDIA_STATUS decode (Foundation JSONDecoder)") {
        _ = try foundationDecoder.decode(MediaStatusMessage.self, from: Data(bytes))
    }
    // The rate of the whole parse: scanning, then building every string, array and dictionary
    // of the JSONValue (and freeing them).
    let megabytes = Double(bytes.count) / 1e6
    try row(
        "MEDIA_STATUS parse to JSONValue",
        target: { median in
            let met = megabytes / median >= 600 ? "met" : "missed"
            return ", target ≥ 600 MB/s: \(met)"
        },
        value: { median in String(format: "%.0f MB/s", megabytes / median) }
    ) {
        _ = try JSONValue(parsing: bytes)
    }
    try row("MEDIA_STATUS encode") {
        _ = try expected.jsonBytes()
    }
    // The client side of a status after the socket and TLS: frame body to CastMessage, payload
    // to MEDIA_STATUS, then the media client's clamping, merging and change detection.
    let frames = try mediaStatusFrames(16)
    let path = StatusPath()
    try path.receive(frames[0])
    var next = 1
    try row("MEDIA_STATUS frame → RemoteMediaClient") {
        try path.receive(frames[next % frames.count])
        next += 1
    }
    guard try expected.jsonBytes(usesTokenEncodable: false) == expected.jsonBytes() else {
        throw BenchmarkFailure(description: "Codable encoding differs")
    }
    try row("MEDIA_STATUS encode (Codable over tokens)") {
        _ = try expected.jsonBytes(usesTokenEncodable: false)
    }
    return rows
}

/// A benchmark precondition that did not hold.

/// Timing by the CPU time of the calling thread, which excludes time spent descheduled and so
/// stays meaningful on a machine shared with other work.
enum CPUTime {
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Runs `body` in batches of `batch` calls for about `seconds` of CPU time and returns the
    /// sorted seconds per call of each batch.
    static func samples(
        seconds: Double = BenchmarkSettings.quick ? 0.1 : 1,
        batch: Int = 200,
        _ body: () throws -> Void
    ) rethrows -> [Double] {
        for _ in 0..<batch { try body() }
        var samples: [Double] = []
        let end = now() + seconds
        while now() < end {
            let start = now()
            for _ in 0..<batch { try body() }
            samples.append((now() - start) / Double(batch))
        }
        return samples.sorted()
    }
}
