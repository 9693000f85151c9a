import CastCore
package import CastEmulator
import CastSync

/// Keeps every frame a virtual device logs (frames in, frames out, connection events).
package final class FrameRecorder: FrameLogSink {
    private let records = Locked<[FrameLogRecord]>([])

    package init() {}

    package func record(_ record: FrameLogRecord) {
        records.withLock { $0.append(record) }
    }

    package var all: [FrameLogRecord] { records.withLock { $0 } }

    /// Inbound frames whose JSON payload has `"type":"<type>"`.
    package func inbound(type: String) -> [FrameLogRecord] {
        frames(.inbound, type: type)
    }

    /// Outbound frames (what the device sent) whose JSON payload has `"type":"<type>"`.
    package func outbound(type: String) -> [FrameLogRecord] {
        frames(.outbound, type: type)
    }

    private func frames(_ direction: FrameLogRecord.Direction, type: String) -> [FrameLogRecord] {
        all.filter { record in
            record.direction == direction
                && (try? JSONValue(parsing: record.payload))?["type"]?.stringValue == type
        }
    }
}
