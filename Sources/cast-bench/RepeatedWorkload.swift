import CastCore
import Foundation

/// `cast-bench --repeat WORKLOAD COUNT`: runs one of the JSON and decode workloads of the
/// `json` and `pychromecast` groups exactly COUNT times, untimed, for an instruction-counting
/// profiler. Instruction counts do not move with the load of a shared machine as times do:
///
/// ```
/// valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*measuredSpan*' \
///     .build/release/cast-bench --repeat frame-decode 2000
/// ```
///
/// Every call of `measuredSpan` is one collection span; the counts divided by COUNT are the
/// instructions of one operation.
enum RepeatedWorkload: String, CaseIterable {
    /// (c): the MEDIA_STATUS frame body to a `CastMessage` and a typed MEDIA_STATUS.
    case frameDecode = "frame-decode"
    /// The MEDIA_STATUS payload to a typed MEDIA_STATUS (`MediaMessage`).
    case statusDecode = "status-decode"
    /// The MEDIA_STATUS payload to a `JSONValue`.
    case parse = "parse"
    /// A typed MEDIA_STATUS to JSON text.
    case statusEncode = "status-encode"
    /// The SDK's status path: frames of a playing device (the position moving) through
    /// `CastMessage` and `MediaMessage` to a `RemoteMediaClient`.
    case statusPath = "status-path"

    static let usage =
        "usage: cast-bench --repeat \(allCases.map(\.rawValue).joined(separator: "|")) COUNT"

    /// Runs the workload named in `arguments` (after `--repeat`); returns the exit status.
    static func main(_ arguments: [String]) -> Int32 {
        guard arguments.count == 2, let workload = RepeatedWorkload(rawValue: arguments[0]),
            let count = Int(arguments[1]), count > 0
        else {
            FileHandle.standardError.write(Data((usage + "\n").utf8))
            return 2
        }
        do {
            try workload.run(count: count)
            return 0
        } catch {
            FileHandle.standardError.write(Data("cast-bench --repeat \(workload.rawValue): \(error)\n".utf8))
            return 1
        }
    }

    /// Prepares the input outside the measured span, then runs the workload `count` times.
    func run(count: Int) throws {
        let payload = mediaStatusFixture
        switch self {
        case .frameDecode:
            let message = CastMessage(
                sourceID: "9c4f2b1e-7d3a-4c5b-8e6f-1a2b3c4d5e6f",
                destinationID: "sender-0",
                namespace: .media,
                text: payload
            )
            let frame = try CastFrameEncoder.encode(message.serializedBytes())
            try Self.measuredSpan(count) {
                let decoded = try CastMessage(serializedBytes: frame[4...])
                guard let text = decoded.payloadUTF8, case .mediaStatus = try MediaMessage(jsonString: text) else {
                    throw BenchmarkFailure("decoded frame is not a MEDIA_STATUS")
                }
            }
        case .statusDecode:
            try Self.measuredSpan(count) { _ = try MediaMessage(jsonString: payload) }
        case .parse:
            let bytes = Array(payload.utf8)
            try Self.measuredSpan(count) { _ = try JSONValue(parsing: bytes) }
        case .statusEncode:
            guard case .mediaStatus(let status) = try MediaMessage(jsonString: payload) else {
                throw BenchmarkFailure("the fixture is not a MEDIA_STATUS")
            }
            try Self.measuredSpan(count) { _ = try status.jsonBytes() }
        case .statusPath:
            let frames = try mediaStatusFrames(16)
            let path = StatusPath()
            // The first status starts the media session; the measured ones update it.
            try path.receive(frames[0])
            var next = 1
            try Self.measuredSpan(count) {
                try path.receive(frames[next % frames.count])
                next += 1
            }
        }
    }

    /// The measured span: `body`, `count` times.
    @inline(never)
    private static func measuredSpan(_ count: Int, _ body: () throws -> Void) throws {
        for _ in 0..<count { try body() }
    }
}
