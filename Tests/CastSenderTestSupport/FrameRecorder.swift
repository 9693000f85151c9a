import CastCore
package import CastEmulator
import CastSync
import CastTestSupport

/// Keeps every frame a virtual device logs (frames in, frames out, connection events).
package final class FrameRecorder: FrameLogSink {
    private let records = Locked<[FrameLogRecord]>([])
    /// Notified at each record: a device's state changes come with the frames it sends.
    private let changes = ChangeSignal()

    package init() {}

    package func record(_ record: FrameLogRecord) {
        records.withLock { $0.append(record) }
        changes.notify()
    }

    /// Waits until `condition` holds, checking it now and after each frame or event the
    /// device logs (what a device's state does shows in the frames it sends), failing with
    /// ``DeadlineExceeded`` after `timeout`, a hang guard.
    package func wait(
        until what: String,
        within timeout: Duration = TestTiming.hangGuard,
        _ condition: @escaping @Sendable () -> Bool
    ) async throws {
        try await changes.wait(until: what, within: timeout, condition)
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
