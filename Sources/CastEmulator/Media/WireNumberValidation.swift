import CastCore

/// The numbers of a queue item a sender sends, checked where they enter the device: a
/// request holding one that is not a finite time within ``WireNumber/maximumSeconds`` is
/// answered `INVALID_PARAMS`, as a receiver does, and never reaches the playback clock.
extension QueueItem {
    var hasValidWireNumbers: Bool {
        let times = [startTime, playbackDuration, preloadTime]
        return times.allSatisfy(WireNumber.isValidSeconds) && (media?.hasValidWireNumbers ?? true)
    }
}

extension MediaInformation {
    var hasValidWireNumbers: Bool {
        WireNumber.isValidSeconds(duration) && WireNumber.isValidSeconds(startAbsoluteTime)
            && (breaks ?? []).allSatisfy {
                WireNumber.isValidSeconds($0.position) && WireNumber.isValidSeconds($0.duration)
            }
            && (breakClips ?? []).allSatisfy {
                WireNumber.isValidSeconds($0.duration) && WireNumber.isValidSeconds($0.whenSkippable)
            }
    }
}

extension WireNumber {
    /// Whether an optional time is absent or valid.
    static func isValidSeconds(_ value: Double?) -> Bool {
        value.map { seconds($0) != nil } ?? true
    }
}
