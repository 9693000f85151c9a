// Fuzzes the SDK's media client and receiver-status handling as a hostile device drives them:
// the input is a program of device messages (MEDIA_STATUS with every member present or not,
// QUEUE_ITEM_IDS, QUEUE_ITEMS, QUEUE_CHANGE, RECEIVER_STATUS) with extreme numbers and huge
// arrays, clock steps, session ends, queue look-ups at any index.
// Messages are decoded as the connection decodes them and handed to `RemoteMediaClient` and
// to the session's receiver-status check (`ReceiverStatus.clampingWireNumbers()`).
//
// Properties: nothing traps; the merged media status holds finite times within the wire
// range, a finite rate and levels in 0...1; the extrapolated position, the last known
// position, the time since the status and the live seekable range are finite, the position
// is not negative and stays within a positive duration; the clamped receiver volume is in
// 0...1; the queue's ids and indexes agree.

@testable import CastCore
import CastNet
import CastTime
import Dispatch
import FuzzSupport

@testable import CastSender

private let queue = DispatchQueue(label: "fuzz-media-client")
private let logger = CastLogger()
private let steps: [Duration] = [
    .zero, .milliseconds(1), .milliseconds(500), .seconds(1), .seconds(30), .seconds(3600), .seconds(86400 * 365),
]

private func checkClient(_ client: RemoteMediaClient) {
    let range = -WireNumber.maximumSeconds...WireNumber.maximumSeconds
    if let status = client.mediaStatus {
        if let time = status.currentTime { FuzzProperty.require(range.contains(time), "currentTime \(time)") }
        if let duration = status.media?.duration {
            FuzzProperty.require(range.contains(duration), "media.duration \(duration)")
        }
        if let rate = status.playbackRate { FuzzProperty.require(rate.isFinite, "playbackRate \(rate)") }
        if let level = status.volume?.level { FuzzProperty.require((0...1).contains(level), "volume \(level)") }
    }
    let position = client.approximateStreamPosition
    FuzzProperty.require(position.isFinite && position >= 0, "approximateStreamPosition \(position)")
    if let duration = client.mediaStatus?.media?.duration, duration > 0 {
        FuzzProperty.require(position <= duration, "approximateStreamPosition \(position) past \(duration)")
    }
    let last = client.lastKnownStreamPosition
    FuzzProperty.require(last.isFinite, "lastKnownStreamPosition \(last)")
    if let since = client.timeSinceLastMediaStatusUpdate {
        FuzzProperty.require(since.isFinite && since >= 0, "timeSinceLastMediaStatusUpdate \(since)")
    }
    if let live = client.approximateLiveSeekableRange {
        FuzzProperty.require(!live.start.isNaN && !live.end.isNaN, "live seekable range \(live)")
        FuzzProperty.require(live.start <= live.end, "live seekable range \(live) is reversed")
    }
    let ids = client.mediaQueue.itemIDs
    FuzzProperty.require(client.mediaQueue.itemCount == ids.count, "queue count differs from its ids")
    for (index, id) in ids.enumerated().prefix(16) {
        FuzzProperty.require(client.mediaQueue.itemID(at: index) == id, "queue id at \(index)")
    }
}

private func checkReceiver(_ text: String) {
    guard case .receiverStatus(let message)? = try? ReceiverMessage(jsonString: DeviceMessageText.framed(text)) else {
        return
    }
    let (status, clamped) = message.status.clampingWireNumbers()
    if let level = status.volume?.level {
        FuzzProperty.require((0...1).contains(level), "receiver volume level \(level) after clamping")
    }
    if let step = status.volume?.stepInterval {
        FuzzProperty.require((0...1).contains(step), "receiver step interval \(step) after clamping")
    }
    FuzzProperty.require(clamped.isEmpty == (status == message.status), "clamped fields \(clamped) disagree")
    // Clamping is idempotent.
    FuzzProperty.require(status.clampingWireNumbers().clamped.isEmpty, "clamping twice changes the status")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMediaClient(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.run(start, count) { input in
        var bytes = FuzzBytes(input)
        let clock = ManualCastClock()
        let client = RemoteMediaClient(clock: clock, logger: logger, callbackQueue: queue)
        var operations = 0
        while !bytes.isAtEnd, operations < 20 {
            operations += 1
            switch bytes.below(8) {
            case 0, 1, 2:
                let text = DeviceMessageText.mediaStatusMessage(&bytes)
                if let message = try? MediaMessage(jsonString: DeviceMessageText.framed(text)) {
                    client.receive(message)
                }
            case 3:
                let text = DeviceMessageText.queueMessage(&bytes)
                if let message = try? MediaMessage(jsonString: DeviceMessageText.framed(text)) {
                    client.receive(message)
                }
            case 4:
                checkReceiver(DeviceMessageText.receiverStatusMessage(&bytes))
            case 5:
                clock.advance(by: bytes.pick(steps))
            case 6:
                let index = bytes.integer()
                _ = client.mediaQueue.item(at: index, fetchIfNeeded: false)
                _ = client.mediaQueue.itemID(at: index)
                _ = client.mediaQueue.index(ofItemID: index)
            default:
                // A session that ends and a new one that starts on the same client.
                if bytes.below(4) == 0 { client.sessionEnded() }
            }
            checkClient(client)
        }
        client.sessionEnded()
        checkClient(client)
        // Let the listeners' deliveries finish before the next input.
        queue.sync {}
    }
}
