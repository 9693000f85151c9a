import CastCore

extension MediaStatus {
    /// The status with every time, rate and level a device sent brought into range
    /// (``WireNumber/maximumSeconds`` for times, 0 to 1 for levels), and the names of the
    /// fields that had to change, for a warning in the log. Everything the SDK and the
    /// widgets compute from a status starts from these values, so a hostile device's
    /// `1e300` never reaches a conversion that traps.
    func clampingWireNumbers() -> (status: MediaStatus, clamped: [String]) {
        var status = self
        var clamped: [String] = []
        func clamp(_ value: inout Double?, _ name: String, _ range: ClosedRange<Double>) {
            guard let old = value else { return }
            let new = old.isNaN ? range.lowerBound : min(max(old, range.lowerBound), range.upperBound)
            if new != old || old.isNaN {
                value = new
                clamped.append(name)
            }
        }
        let times = -WireNumber.maximumSeconds...WireNumber.maximumSeconds
        clamp(&status.currentTime, "currentTime", times)
        clamp(&status.playbackRate, "playbackRate", -1000...1000)
        if status.volume != nil {
            var level = status.volume!.level
            clamp(&level, "volume.level", 0...1)
            status.volume!.level = level
        }
        if status.media != nil {
            var duration = status.media!.duration
            clamp(&duration, "media.duration", times)
            if duration != status.media!.duration { status.media!.duration = duration }
        }
        return (status, clamped)
    }
}
