/// Where a virtual device sends its frame log. Called from many threads at once.
public protocol FrameLogSink: Sendable {
    /// Records one frame or event.
    func record(_ record: FrameLogRecord)
}
