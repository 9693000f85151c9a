import CastCore

extension MediaStatus {
    /// The status with every time, rate and level a device sent brought into range
    /// (``WireNumber/maximumSeconds`` for times, 0 to 1 for levels), and the names of the
    /// fields that had to change, for a warning in the log. Everything the SDK and the
    /// widgets compute from a status starts from these values, so a hostile device's
    /// `1e300` never reaches a conversion that traps.
    ///
    /// Checked: `currentTime`, `playbackRate`, `volume.level`, the break status's times, the
    /// live seekable range, and in the media (the status's, the extended status's and each
    /// queue item's) the duration and the times of its breaks and break clips, plus each queue
    /// item's start, playback and preload times.
    func clampingWireNumbers() -> (status: MediaStatus, clamped: [String]) {
        // Every status a device sends passes here, nearly always in range: reading the numbers
        // copies nothing, where clamping copies the status and its media to write into them.
        guard hasWireNumbersOutOfRange else { return (self, []) }
        var clamper = WireNumberClamper()
        var status = self
        clamper.time(&status.currentTime, "currentTime")
        clamper.clamp(&status.playbackRate, "playbackRate", -1000...1000)
        if status.volume != nil { clamper.clamp(&status.volume!.level, "volume.level", 0...1) }
        if status.media != nil { clamper.media(&status.media!, "media") }
        if status.extendedStatus?.media != nil { clamper.media(&status.extendedStatus!.media!, "extendedStatus.media") }
        if status.breakStatus != nil {
            clamper.time(&status.breakStatus!.currentBreakTime, "breakStatus.currentBreakTime")
            clamper.time(&status.breakStatus!.currentBreakClipTime, "breakStatus.currentBreakClipTime")
            clamper.time(&status.breakStatus!.whenSkippable, "breakStatus.whenSkippable")
        }
        if status.liveSeekableRange != nil {
            clamper.time(&status.liveSeekableRange!.start, "liveSeekableRange.start")
            clamper.time(&status.liveSeekableRange!.end, "liveSeekableRange.end")
        }
        if let items = status.items {
            let before = clamper.changes
            var checked = items
            for index in checked.indices {
                clamper.time(&checked[index].startTime, "items.startTime")
                clamper.time(&checked[index].playbackDuration, "items.playbackDuration")
                clamper.time(&checked[index].preloadTime, "items.preloadTime")
                if checked[index].media != nil { clamper.media(&checked[index].media!, "items.media") }
            }
            if clamper.changes != before { status.items = checked }
        }
        return (clamper.changed ? status : self, clamper.clamped)
    }
}

extension MediaStatus {
    /// Whether ``clampingWireNumbers()`` has anything to change: the same fields, only read.
    var hasWireNumbersOutOfRange: Bool {
        let times = WireNumberClamper.times
        if !Self.isIn(currentTime, times) || !Self.isIn(playbackRate, -1000...1000) { return true }
        if let volume, !Self.isIn(volume.level, 0...1) { return true }
        if let media, media.hasWireNumbersOutOfRange { return true }
        if let media = extendedStatus?.media, media.hasWireNumbersOutOfRange { return true }
        if let breakStatus,
            !Self.isIn(breakStatus.currentBreakTime, times) || !Self.isIn(breakStatus.currentBreakClipTime, times)
                || !Self.isIn(breakStatus.whenSkippable, times)
        {
            return true
        }
        if let range = liveSeekableRange, !Self.isIn(range.start, times) || !Self.isIn(range.end, times) {
            return true
        }
        for item in items ?? [] {
            if !Self.isIn(item.startTime, times) || !Self.isIn(item.playbackDuration, times)
                || !Self.isIn(item.preloadTime, times)
            {
                return true
            }
            if let media = item.media, media.hasWireNumbersOutOfRange { return true }
        }
        return false
    }

    /// Whether `value` is absent or a number inside `range` (NaN is not).
    static func isIn(_ value: Double?, _ range: ClosedRange<Double>) -> Bool {
        guard let value else { return true }
        return range.contains(value)
    }
}

extension MediaInformation {
    /// Whether the duration or a time of a break or break clip needs clamping.
    fileprivate var hasWireNumbersOutOfRange: Bool {
        let times = WireNumberClamper.times
        if !MediaStatus.isIn(duration, times) { return true }
        for adBreak in breaks ?? []
        where !times.contains(adBreak.position) || !MediaStatus.isIn(adBreak.duration, times) {
            return true
        }
        for clip in breakClips ?? []
        where !MediaStatus.isIn(clip.duration, times) || !MediaStatus.isIn(clip.whenSkippable, times) {
            return true
        }
        return false
    }
}

/// Brings wire numbers into range and remembers which fields changed (each name once).
private struct WireNumberClamper {
    private(set) var clamped: [String] = []
    /// How many values changed (a name repeats across queue items, breaks and clips).
    private(set) var changes = 0
    var changed: Bool { changes > 0 }

    static let times = -WireNumber.maximumSeconds...WireNumber.maximumSeconds

    /// NaN becomes the lower bound; anything else is clamped to `range`.
    mutating func clamp(_ value: inout Double?, _ name: String, _ range: ClosedRange<Double>) {
        guard let old = value else { return }
        var new = old
        clamp(&new, name, range)
        if new != old || old.isNaN { value = new }
    }

    mutating func clamp(_ value: inout Double, _ name: String, _ range: ClosedRange<Double>) {
        let old = value
        let new = old.isNaN ? range.lowerBound : min(max(old, range.lowerBound), range.upperBound)
        guard new != old || old.isNaN else { return }
        value = new
        changes += 1
        if !clamped.contains(name) { clamped.append(name) }
    }

    mutating func time(_ value: inout Double?, _ name: String) { clamp(&value, name, Self.times) }

    mutating func media(_ media: inout MediaInformation, _ name: String) {
        let before = changes
        var copy = media
        time(&copy.duration, "\(name).duration")
        if var breaks = copy.breaks {
            for index in breaks.indices {
                clamp(&breaks[index].position, "\(name).breaks.position", Self.times)
                time(&breaks[index].duration, "\(name).breaks.duration")
            }
            copy.breaks = breaks
        }
        if var clips = copy.breakClips {
            for index in clips.indices {
                time(&clips[index].duration, "\(name).breakClips.duration")
                time(&clips[index].whenSkippable, "\(name).breakClips.whenSkippable")
            }
            copy.breakClips = clips
        }
        // Write back only on a change, so an unchanged status stays equal to what arrived.
        if changes != before { media = copy }
    }
}
