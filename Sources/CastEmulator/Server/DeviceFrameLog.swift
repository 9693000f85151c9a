import CastCore
import Foundation

/// Where a device records the frames it receives and sends and the events of its connections:
/// the ``FrameLogSink`` it was given (if any), each record stamped with the device's name.
struct DeviceFrameLog: Sendable {
    private let sink: (any FrameLogSink)?
    private let device: String

    init(sink: (any FrameLogSink)?, device: String) {
        self.sink = sink
        self.device = device
    }

    /// Records a frame received (`.inbound`) or sent (`.outbound`) on `connection`.
    func record(_ message: CastMessage, connection: Int, direction: FrameLogRecord.Direction) {
        guard let sink else { return }
        sink.record(
            FrameLogRecord(message: message, time: Date(), device: device, connection: connection, direction: direction)
        )
    }

    /// Records an event of `connection` (0 for the device as a whole).
    func record(_ connection: Int, event: String) {
        guard let sink else { return }
        sink.record(
            FrameLogRecord(time: Date(), device: device, connection: connection, direction: .event, payload: event)
        )
    }
}
