import CastNet
import CastTime
import Testing

@testable import CastSender

@Suite struct MediaStatusTrackerTests {
    let t0 = CastInstant(offset: .seconds(100))

    func status(_ id: Int = 1, state: PlayerState = .playing, time: Double = 10, rate: Double? = nil) -> MediaStatus {
        MediaStatus(
            mediaSessionID: id,
            media: MediaInformation(contentID: "a", duration: 60),
            playbackRate: rate,
            playerState: state,
            currentTime: time
        )
    }

    @Test func extrapolatesWhilePlaying() {
        var tracker = MediaStatusTracker()
        _ = tracker.apply([status()], now: t0)
        #expect(tracker.approximateStreamPosition(now: t0.advanced(by: .seconds(5))) == 15)
        #expect(tracker.approximateStreamPosition(now: t0.advanced(by: .seconds(500))) == 60)
    }

    @Test func honoursRateAndPause() {
        var tracker = MediaStatusTracker()
        _ = tracker.apply([status(rate: 2)], now: t0)
        #expect(tracker.approximateStreamPosition(now: t0.advanced(by: .seconds(5))) == 20)
        _ = tracker.apply([status(state: .paused, time: 20)], now: t0)
        #expect(tracker.approximateStreamPosition(now: t0.advanced(by: .seconds(5))) == 20)
    }

    /// Found by fuzz-media-client: a paused status's position came back unclamped, so a
    /// device's negative or past-the-end currentTime reached the seek bar.
    @Test(arguments: [PlayerState.paused, .buffering, .idle], [-0.5, -1e10, 61, 1e10])
    func aPositionThatIsNotMovingIsClampedToo(state: PlayerState, time: Double) {
        var tracker = MediaStatusTracker()
        _ = tracker.apply([status(state: state, time: time)], now: t0)
        #expect(tracker.approximateStreamPosition(now: t0.advanced(by: .seconds(5))) == min(max(time, 0), 60))
    }

    @Test func pendingSeekShowsItsTarget() {
        var tracker = MediaStatusTracker()
        _ = tracker.apply([status()], now: t0)
        tracker.seekStarted(requestID: 7, absolute: nil, relative: 30, now: t0)
        #expect(tracker.approximateStreamPosition(now: t0.advanced(by: .seconds(3))) == 40)
        tracker.seekSettled(requestID: 7)
        #expect(tracker.approximateStreamPosition(now: t0.advanced(by: .seconds(3))) == 13)
    }

    @Test func mergesIncrementalUpdatesAndReportsChanges() {
        var tracker = MediaStatusTracker()
        let first = tracker.apply([status()], now: t0)
        #expect(first.contains(.mediaSession))
        var update = status(time: 12)
        update.media = nil
        let second = tracker.apply([update], now: t0)
        #expect(!second.contains(.mediaSession))
        #expect(!second.contains(.metadata))
        #expect(tracker.status?.media?.contentID == "a")
        var queued = status(time: 12)
        queued.currentItemID = 3
        queued.preloadedItemID = 4
        let third = tracker.apply([queued], now: t0)
        #expect(third.contains(.queue))
        #expect(third.contains(.preload))
        #expect(tracker.apply([status(2)], now: t0).contains(.mediaSession))
    }

    /// The queue counts as changed when the window's item ids differ in any way (order,
    /// membership, present or absent), and only then; other members of the items do not count.
    @Test func queueChangesAreTheItemIDsOfTheWindow() {
        func items(_ ids: [Int]) -> [QueueItem] { ids.map { QueueItem(itemID: $0, autoplay: true) } }
        var tracker = MediaStatusTracker()
        var first = status()
        first.items = items([1, 2, 3])
        _ = tracker.apply([first], now: t0)
        var sameIDs = status(time: 11)
        sameIDs.items = items([1, 2, 3]).map { item in
            var item = item
            item.startTime = 5
            return item
        }
        #expect(!tracker.apply([sameIDs], now: t0).contains(.queue))
        for window in [[1, 3, 2], [1, 2], [1, 2, 3, 4], []] {
            var changed = status(time: 12)
            changed.items = items(window)
            #expect(tracker.apply([changed], now: t0).contains(.queue), "window \(window)")
            var restored = status(time: 13)
            restored.items = items([1, 2, 3])
            #expect(tracker.apply([restored], now: t0).contains(.queue))
        }
        #expect(MediaStatusTracker.sameItemIDs(nil, nil))
        #expect(!MediaStatusTracker.sameItemIDs(nil, []))
        #expect(!MediaStatusTracker.sameItemIDs([], nil))
        #expect(!MediaStatusTracker.sameItemIDs(items([1]), [QueueItem()]))
    }

    @Test func lastKnownValuesSurviveTheEnd() {
        var tracker = MediaStatusTracker()
        _ = tracker.apply([status(state: .paused, time: 42)], now: t0)
        tracker.reset(now: t0.advanced(by: .seconds(10)))
        #expect(tracker.status == nil)
        #expect(tracker.lastKnownStreamPosition == 42)
        #expect(tracker.lastKnownPlayerState == .paused)
        #expect(tracker.approximateStreamPosition(now: t0) == 0)
    }

    @Test func emptyStatusEndsTheMediaSession() {
        var tracker = MediaStatusTracker()
        _ = tracker.apply([status()], now: t0)
        let changes = tracker.apply([], now: t0.advanced(by: .seconds(2)))
        #expect(changes.contains(.mediaSession))
        #expect(tracker.status == nil)
        #expect(tracker.lastKnownStreamPosition == 12)
    }

    @Test func liveRangeExtrapolation() {
        var tracker = MediaStatusTracker()
        var live = status()
        live.liveSeekableRange = LiveSeekableRange(start: 0, end: 100, isMovingWindow: true, isLiveDone: false)
        _ = tracker.apply([live], now: t0)
        let range = tracker.approximateLiveSeekableRange(now: t0.advanced(by: .seconds(10)))
        #expect(range?.start == 10)
        #expect(range?.end == 110)
    }
}
