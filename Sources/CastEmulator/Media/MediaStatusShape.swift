import CastCore

/// What a class of real device puts in `MEDIA_STATUS` besides the player state.
struct MediaStatusShape: Hashable, Sendable {
    /// Whether a queue of one item is listed in `items` (real devices list it; the generic
    /// profile lists queues of two or more).
    var listsSingleItemQueues = false
    /// Whether `sequenceNumber` is reported (no captured device sends it).
    var reportsSequenceNumber = true
    /// The `videoInfo` reported while video plays (video devices), or `nil`.
    var videoInfo: VideoInfo?

    /// The shape of `profile`'s class.
    init(profile: DeviceProfile) {
        guard profile.kind != .generic else { return }
        listsSingleItemQueues = true
        reportsSequenceNumber = false
        if profile.capabilities.contains(.videoOut) {
            videoInfo = VideoInfo(width: 1280, height: 720, hdrType: "sdr")
        }
    }

    init() {}
}
