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
    /// Whether the stream volume level is reported as a float32 widened to double.
    var reportsFloat32Volume = false

    /// The shape of `profile`'s class.
    init(profile: DeviceProfile) {
        guard profile.kind != .generic else { return }
        listsSingleItemQueues = true
        reportsSequenceNumber = false
        reportsFloat32Volume = profile.reportsFloat32Volume
        if profile.capabilities.contains(.videoOut) {
            videoInfo = VideoInfo(width: 1280, height: 720, hdrType: "sdr")
        }
    }

    init() {}
}
