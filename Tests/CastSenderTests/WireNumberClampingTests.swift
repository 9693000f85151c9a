import CastCore
import Testing

@testable import CastSender

/// The SDK's range checks of the numbers a device reports, where they enter: every time the
/// SDK or the widgets read is brought within ±`WireNumber.maximumSeconds`, every level within
/// 0...1, and the names of the changed fields come back for the log.
@Suite struct WireNumberClampingTests {
    static let limit = WireNumber.maximumSeconds

    static func media(_ value: Double) -> MediaInformation {
        var media = MediaInformation(contentID: "http://m/1.mp4", duration: value)
        media.breaks = [AdBreak(id: "b", position: value, duration: value, breakClipIDs: ["c"])]
        media.breakClips = [AdBreakClip(id: "c", duration: value, whenSkippable: value)]
        return media
    }

    @Test(arguments: [1e300, -1e300, Double.nan, Double.infinity])
    func everyTimeOfAHostileMediaStatusIsClamped(value: Double) {
        var status = MediaStatus(mediaSessionID: 1, media: Self.media(value), playerState: .playing)
        status.currentTime = value
        status.breakStatus = AdBreakStatus(
            breakID: "b",
            breakClipID: "c",
            currentBreakTime: value,
            currentBreakClipTime: value,
            whenSkippable: value
        )
        status.liveSeekableRange = LiveSeekableRange(start: value, end: value)
        status.extendedStatus = ExtendedMediaStatus(playerState: .loading, media: Self.media(value))
        status.items = [
            QueueItem(
                itemID: 1,
                media: Self.media(value),
                startTime: value,
                playbackDuration: value,
                preloadTime: value
            ),
            QueueItem(itemID: 2, media: Self.media(value)),
        ]
        let (checked, fields) = status.clampingWireNumbers()
        let expected = value.isNaN ? -Self.limit : min(max(value, -Self.limit), Self.limit)
        var times: [Double?] = [
            checked.currentTime, checked.breakStatus?.currentBreakTime, checked.breakStatus?.currentBreakClipTime,
            checked.breakStatus?.whenSkippable, checked.liveSeekableRange?.start, checked.liveSeekableRange?.end,
            checked.items?[0].startTime, checked.items?[0].playbackDuration, checked.items?[0].preloadTime,
        ]
        for media in [checked.media, checked.extendedStatus?.media, checked.items?[0].media, checked.items?[1].media] {
            times += [
                media?.duration, media?.breaks?[0].position, media?.breaks?[0].duration,
                media?.breakClips?[0].duration, media?.breakClips?[0].whenSkippable,
            ]
        }
        for time in times { #expect(time == expected) }
        #expect(fields.contains("breakStatus.whenSkippable") && fields.contains("items.media.breakClips.duration"))
        #expect(Set(fields).count == fields.count, "each field is named once: \(fields)")
        #expect(checked.clampingWireNumbers().clamped.isEmpty, "clamping twice changes nothing")
    }

    /// Each checked number alone out of range: the quick check that lets an ordinary status
    /// through uncopied must see every one of them, or that number would escape clamping.
    static let singleFields: [(String, @Sendable (inout MediaStatus, Double) -> Void)] = [
        ("currentTime", { $0.currentTime = $1 }),
        ("playbackRate", { $0.playbackRate = $1 }),
        ("volume.level", { $0.volume = Volume(level: $1) }),
        ("media.duration", { $0.media?.duration = $1 }),
        ("media.breaks.position", { $0.media?.breaks = [AdBreak(id: "b", position: $1)] }),
        ("media.breaks.duration", { $0.media?.breaks = [AdBreak(id: "b", position: 0, duration: $1)] }),
        ("media.breakClips.duration", { $0.media?.breakClips = [AdBreakClip(id: "c", duration: $1)] }),
        ("media.breakClips.whenSkippable", { $0.media?.breakClips = [AdBreakClip(id: "c", whenSkippable: $1)] }),
        (
            "extendedStatus.media.duration",
            { $0.extendedStatus = ExtendedMediaStatus(playerState: .loading, media: media($1)) }
        ),
        ("breakStatus.currentBreakTime", { $0.breakStatus = AdBreakStatus(currentBreakTime: $1) }),
        ("breakStatus.currentBreakClipTime", { $0.breakStatus = AdBreakStatus(currentBreakClipTime: $1) }),
        ("breakStatus.whenSkippable", { $0.breakStatus = AdBreakStatus(whenSkippable: $1) }),
        ("liveSeekableRange.start", { $0.liveSeekableRange = LiveSeekableRange(start: $1) }),
        ("liveSeekableRange.end", { $0.liveSeekableRange = LiveSeekableRange(end: $1) }),
        ("items.startTime", { $0.items = [QueueItem(itemID: 1, startTime: $1)] }),
        ("items.playbackDuration", { $0.items = [QueueItem(itemID: 1, playbackDuration: $1)] }),
        ("items.preloadTime", { $0.items = [QueueItem(itemID: 1, preloadTime: $1)] }),
        ("items.media.duration", { $0.items = [QueueItem(itemID: 1), QueueItem(itemID: 2, media: media($1))] }),
    ]

    @Test(arguments: 0..<singleFields.count, [1e300, -1e300, Double.nan])
    func eachNumberAloneIsClamped(field: Int, value: Double) {
        let (name, set) = Self.singleFields[field]
        var status = MediaStatus(mediaSessionID: 1, media: MediaInformation(contentID: "a"), playerState: .playing)
        set(&status, value)
        #expect(status.hasWireNumbersOutOfRange, "\(name)")
        let (checked, fields) = status.clampingWireNumbers()
        #expect(fields.contains { name.hasPrefix($0) || $0.hasPrefix(name) }, "\(name): \(fields)")
        #expect(!checked.hasWireNumbersOutOfRange, "\(name)")
        set(&status, 0.5)
        #expect(!status.hasWireNumbersOutOfRange, "\(name) in range")
    }

    @Test func anOrdinaryStatusIsLeftAlone() {
        var status = MediaStatus(mediaSessionID: 1, media: Self.media(30), playerState: .playing, currentTime: 3)
        status.items = [QueueItem(itemID: 1, media: Self.media(30), startTime: 0)]
        let (checked, fields) = status.clampingWireNumbers()
        #expect(fields.isEmpty)
        #expect(checked == status)
    }

    @Test(arguments: [(1e300, 1.0), (-1e300, 0.0), (Double.nan, 0.0), (0.25, 0.25)])
    func aReceiverVolumeIsClamped(level: Double, expected: Double) {
        let status = ReceiverStatus(volume: DeviceVolume(level: level, muted: false, stepInterval: level))
        let (checked, fields) = status.clampingWireNumbers()
        #expect(checked.volume?.level == expected)
        #expect(checked.volume?.stepInterval == (level.isNaN ? 0.05 : expected))
        #expect(fields.isEmpty == (level == 0.25))
        #expect(checked.clampingWireNumbers().clamped.isEmpty)
    }
}
