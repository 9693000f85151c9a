import CastCore
import CastSync
import CastTime

/// The faults a device injects into its senders' connections, beside the behaviour faults its
/// engine keeps (``DeviceFaults``): a delay held on every frame sent, dropped connections,
/// frames cut in half, garbage, oversize headers and frames written a byte at a time.
final class DeviceFaultInjector: Sendable {
    private let links: SenderLinkTable
    private let log: DeviceFrameLog
    private let delay = Locked(Duration.zero)

    init(links: SenderLinkTable, log: DeviceFrameLog) {
        self.links = links
        self.log = log
    }

    /// How long every frame the device sends is held back (zero for none).
    var replyDelay: Duration {
        get { delay.withLock { $0 } }
        set { delay.withLock { $0 = max(.zero, newValue) } }
    }

    /// Applies the lasting faults of `request`: the reply delay here, the behaviour faults to
    /// `faults`.
    func applyLasting(_ request: FaultControlRequest, to faults: inout DeviceFaults) {
        delay.withLock { request.apply(to: &faults, replyDelay: &$0) }
    }

    /// Applies the one-shot wire faults of `request`, in the order the control endpoint
    /// documents.
    func applyOneShot(_ request: FaultControlRequest) {
        if request.crashMidFrame { crashConnectionsMidFrame() }
        if request.dropConnections { dropAllConnections() }
        if request.sendGarbage { sendGarbageFrames() }
        if request.oversizeFrame { sendOversizeFrameHeaders() }
        if let milliseconds = request.trickleMilliseconds { trickleFrames(every: .milliseconds(milliseconds)) }
    }

    /// Closes every sender connection at once.
    func dropAllConnections() {
        for link in links.all {
            log.record(link.id, event: "fault: connection dropped")
            link.close(reason: "fault: connection dropped")
        }
    }

    /// Sends half of a frame on every sender connection, then closes it.
    func crashConnectionsMidFrame() {
        let frame = Self.pingFrame
        let half = Array(frame.prefix(max(1, frame.count / 2)))
        for link in links.all {
            log.record(link.id, event: "fault: \(half.count) of \(frame.count) frame bytes sent, then closed")
            link.crash(sending: half)
        }
    }

    /// Sends every sender a frame whose body is not a `CastMessage`, then nothing more on
    /// that connection.
    func sendGarbageFrames() {
        let body = [UInt8](repeating: 0xFF, count: 64)
        let frame = (try? CastFrameEncoder.encode(body)) ?? [0, 0, 0, 64] + body
        for link in links.all {
            log.record(link.id, event: "fault: a \(body.count)-byte frame that is not a CastMessage sent")
            link.jam(sending: frame)
        }
    }

    /// Sends every sender the length prefix of a frame far over the 64 KiB limit
    /// (0x7FFFFFFF bytes), then nothing more on that connection.
    func sendOversizeFrameHeaders() {
        let header: [UInt8] = [0x7F, 0xFF, 0xFF, 0xFF]
        for link in links.all {
            log.record(link.id, event: "fault: a frame header announcing 2147483647 bytes sent")
            link.jam(sending: header)
        }
    }

    /// Writes a `PING` frame to every sender one byte per `interval`, and nothing else on
    /// that connection from then on.
    func trickleFrames(every interval: Duration) {
        let frame = Self.pingFrame
        for link in links.all {
            log.record(link.id, event: "fault: trickling a \(frame.count)-byte frame, one byte per \(interval)")
            link.trickle(frame, every: max(.milliseconds(1), interval))
        }
    }

    /// A heartbeat `PING`, framed: the frame the wire faults break.
    private static var pingFrame: [UInt8] {
        let ping = CastMessage(
            sourceID: "receiver-0",
            destinationID: "sender-0",
            namespace: .heartbeat,
            text: #"{"type":"PING"}"#
        )
        return (try? CastFrameEncoder.encode(ping.serializedBytes())) ?? [0, 0, 0, 16]
    }
}
