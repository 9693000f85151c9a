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
