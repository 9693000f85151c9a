import CastCore
import CastNet
import CastSender
import Foundation

/// What a session does with a MEDIA_STATUS frame once it has it: the frame body to a
/// `CastMessage`, its payload to a typed message, the typed message to the media client
/// (clamping, merging, change detection, events for listeners).
struct StatusPath {
    let client = RemoteMediaClient(
        clock: SystemCastClock(),
        logger: CastLogger(),
        callbackQueue: DispatchQueue(label: "cast-bench.status-path")
    )

    func receive(_ frame: [UInt8]) throws {
        let decoded = try CastMessage(serializedBytes: frame[4...])
        guard let text = decoded.payloadUTF8 else { throw BenchmarkFailure("no text payload") }
        client.receive(try MediaMessage(jsonString: text))
    }
}
