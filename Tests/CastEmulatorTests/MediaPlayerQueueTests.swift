import CastCore
import CastEmulator
import CastTime
import Testing

/// Queues: loading, advancing, preloading, repeat modes and edits.
@Suite struct MediaPlayerQueueTests {
    static func item(_ number: Int, duration: Double = 30, extra: String = "") -> String {
        #"{"media":{"contentId":"http://m/\#(number).mp4","streamType":"BUFFERED","duration":\#(duration)}\#(extra)}"#
    }

    static func queueLoad(
        items: [String] = [item(1), item(2), item(3)],
        startIndex: Int = 0,
        repeatMode: String = "REPEAT_OFF"
    ) -> String {
        #"{"type":"LOAD","requestId":2,"queueData":{"items":[\#(items.joined(separator: ","))],"startIndex":\#(startIndex),"repeatMode":"\#(repeatMode)"}}"#
    }

    /// A device playing a queue; returns the harness and the transport id.
    static func playing(
        _ load: String,
        configure: (inout VirtualDeviceConfiguration) -> Void = { _ in }
    )
        -> (DeviceHarness, String)
    {
        var device = DeviceHarness(configure)
        let transportID = device.startMediaApp()
        device.media(load, transportID: transportID)
        device.advance(by: .milliseconds(200))
        return (device, transportID)
    }

    static func currentItemID(_ device: DeviceHarness) -> Int? {
        device.engine.mediaStatus(at: device.now)?.currentItemID
    }

    @Test func loadingAQueueStartsAtTheStartIndex() throws {
        let (device, _) = Self.playing(Self.queueLoad(startIndex: 1))
        let status = try #require(device.engine.mediaStatus(at: device.now))
        #expect(status.currentItemID == 2)
        #expect(status.items?.compactMap(\.itemID) == [1, 2, 3])
        #expect(status.media?.contentID == "http://m/2.mp4")
        #expect(status.repeatMode == .off)
        let expected: MediaCommands = [.allBasicMedia, .queueNext, .queuePrevious, .queueShuffle, .queueRepeat]
        #expect(status.supportedMediaCommands == expected)
        #expect(status.supportedMediaCommands?.rawValue == 15823)
    }

    @Test func itemsPlayOneAfterAnotherThenTheQueueFinishes() throws {
        var (device, _) = Self.playing(Self.queueLoad(startIndex: 1))
        var changes: [String] = []
        for _ in 0..<70 {
            for payload in device.advance(by: .seconds(1)).payloads(namespace: .media, type: "MEDIA_STATUS") {
                let status = payload["status"]?[0]
                changes.append("\(status?["currentItemId"] ?? nil):\(status?["playerState"] ?? nil)")
            }
        }
        #expect(changes == ["3:\"BUFFERING\"", "3:\"PLAYING\"", "3:\"IDLE\""])
        let status = try #require(device.engine.mediaStatus(at: device.now))
        #expect(status.idleReason == .finished)
    }

    @Test func theNextItemIsPreloadedAndStartsWithoutBuffering() throws {
        let items = [Self.item(1), Self.item(2, extra: #","preloadTime":10"#)]
        var (device, _) = Self.playing(Self.queueLoad(items: items))
        #expect(device.engine.mediaStatus(at: device.now)?.preloadedItemID == nil)
        let preload = device.advance(by: .seconds(20))
        let notice = try #require(preload.payloads(namespace: .media, type: "MEDIA_STATUS").last?["status"]?[0])
        #expect(notice["preloadedItemId"] == 2)
        #expect(notice["currentItemId"] == 1)
        #expect(device.engine.mediaStatus(at: device.now)?.currentTime == 20)
        let next = device.advance(by: .seconds(10))
        let states = next.payloads(namespace: .media, type: "MEDIA_STATUS").compactMap { $0["status"]?[0] }
        #expect(states.map { $0["playerState"] } == ["PLAYING"])
        #expect(states.first?["currentItemId"] == 2)
        #expect(states.first?["preloadedItemId"] == nil)
        #expect(states.first?["currentTime"] == 0)
    }

    @Test func seekingBackBeforeThePreloadPointForgetsThePreload() throws {
        let items = [Self.item(1), Self.item(2, extra: #","preloadTime":10"#)]
        var (device, transportID) = Self.playing(Self.queueLoad(items: items))
        device.advance(by: .seconds(25))
        #expect(device.engine.mediaStatus(at: device.now)?.preloadedItemID == 2)
        device.media(#"{"type":"SEEK","requestId":3,"mediaSessionId":1,"currentTime":5}"#, transportID: transportID)
        #expect(device.engine.mediaStatus(at: device.now)?.preloadedItemID == nil)
        device.advance(by: .seconds(15))
        #expect(device.engine.mediaStatus(at: device.now)?.preloadedItemID == 2)
    }

    @Test func repeatAllWrapsAround() {
        var (device, _) = Self.playing(Self.queueLoad(items: [Self.item(1), Self.item(2)], repeatMode: "REPEAT_ALL"))
        device.advance(by: .seconds(30))
        #expect(Self.currentItemID(device) == 2)
        device.advance(by: .seconds(31))
        #expect(Self.currentItemID(device) == 1)
        #expect(device.engine.mediaStatus(at: device.now)?.playerState == .playing)
    }

    @Test func repeatSingleReplaysTheItem() throws {
        var (device, _) = Self.playing(Self.queueLoad(repeatMode: "REPEAT_SINGLE"))
        device.advance(by: .seconds(31))
        let status = try #require(device.engine.mediaStatus(at: device.now))
        #expect(status.currentItemID == 1)
        #expect(status.playerState == .playing)
        #expect((status.currentTime ?? 99) < 1)
    }

    @Test func repeatAllAndShuffleStartsEachRoundWithANewOrder() {
        let items = (1...6).map { Self.item($0, duration: 10) }
        var (device, _) = Self.playing(Self.queueLoad(items: items, repeatMode: "REPEAT_ALL_AND_SHUFFLE"))
        var played: [Int] = []
        for _ in 0..<130 {
            device.advance(by: .seconds(1))
            if let id = Self.currentItemID(device), played.last != id { played.append(id) }
        }
        #expect(played.count >= 12)
        let firstRound = Array(played.prefix(6))
        let secondRound = Array(played.dropFirst(6).prefix(6))
        #expect(firstRound == [1, 2, 3, 4, 5, 6])
        #expect(Set(secondRound) == Set(1...6))
        #expect(secondRound.first != 6, "a new round never starts with the item that just played")
    }

    @Test func nextAndPreviousStopAtTheEndsWithoutRepeat() throws {
        var (device, transportID) = Self.playing(Self.queueLoad(startIndex: 2))
        let next = device.media(#"{"type":"QUEUE_NEXT","requestId":5,"mediaSessionId":1}"#, transportID: transportID)
        #expect(
            next.payloads(namespace: .media).first == [
                "type": "INVALID_REQUEST", "requestId": 5, "reason": "END_OF_QUEUE",
            ]
        )
        let jump = device.media(
            #"{"type":"QUEUE_UPDATE","requestId":6,"mediaSessionId":1,"jump":1}"#,
            transportID: transportID
        )
        #expect(jump.payloads(namespace: .media).first?["reason"] == "END_OF_QUEUE")
        let previous = device.media(
            #"{"type":"QUEUE_PREV","requestId":7,"mediaSessionId":1}"#,
            transportID: transportID
        )
        let moved = try #require(previous.payloads(namespace: .media).first?["status"]?[0])
        #expect(moved["currentItemId"] == 2)
        #expect(moved["playerState"] == "BUFFERING")
        device.media(#"{"type":"QUEUE_UPDATE","requestId":8,"mediaSessionId":1,"jump":-1}"#, transportID: transportID)
        #expect(Self.currentItemID(device) == 1)
        let first = device.media(#"{"type":"QUEUE_PREV","requestId":9,"mediaSessionId":1}"#, transportID: transportID)
        #expect(first.payloads(namespace: .media).first?["reason"] == "END_OF_QUEUE")
        let status = try #require(device.engine.mediaStatus(at: device.now))
        #expect(status.supportedMediaCommands?.contains(.queuePrevious) == false)
        #expect(status.supportedMediaCommands?.contains(.queueNext) == true)
    }

    @Test func jumpsWrapWithRepeatAll() {
        var (device, transportID) = Self.playing(Self.queueLoad(repeatMode: "REPEAT_ALL"))
        device.media(#"{"type":"QUEUE_UPDATE","requestId":3,"mediaSessionId":1,"jump":-1}"#, transportID: transportID)
        #expect(Self.currentItemID(device) == 3)
        device.media(#"{"type":"QUEUE_NEXT","requestId":4,"mediaSessionId":1}"#, transportID: transportID)
        #expect(Self.currentItemID(device) == 1)
    }

    @Test func insertAppendsOrPlacesItemsAndAnnouncesTheChange() throws {
        var (device, transportID) = Self.playing(Self.queueLoad())
        let append = device.media(
            #"{"type":"QUEUE_INSERT","requestId":3,"mediaSessionId":1,"items":[\#(Self.item(4))]}"#,
            transportID: transportID
        )
        let change = try #require(append.payloads(namespace: .media, type: "QUEUE_CHANGE").first)
        #expect(change == ["type": "QUEUE_CHANGE", "changeType": "INSERT", "itemIds": [4], "sequenceNumber": 1])
        #expect(append.payloads(namespace: .media, type: "MEDIA_STATUS").first?["requestId"] == 3)
        let before = device.media(
            #"{"type":"QUEUE_INSERT","requestId":4,"mediaSessionId":1,"insertBefore":2,"currentItemIndex":1,"items":[\#(Self.item(5)),\#(Self.item(6))]}"#,
            transportID: transportID
        )
        #expect(before.payloads(namespace: .media, type: "QUEUE_CHANGE").first?["insertBefore"] == 2)
        let ids = device.media(
            #"{"type":"QUEUE_GET_ITEM_IDS","requestId":5,"mediaSessionId":1}"#,
            transportID: transportID
        )
        #expect(
            ids.payloads(namespace: .media).first == [
                "type": "QUEUE_ITEM_IDS", "requestId": 5, "itemIds": [1, 5, 6, 2, 3, 4], "sequenceNumber": 2,
            ]
        )
        #expect(Self.currentItemID(device) == 6, "currentItemIndex makes an inserted item current")
        let bad = device.media(
            #"{"type":"QUEUE_INSERT","requestId":6,"mediaSessionId":1,"insertBefore":99,"items":[\#(Self.item(7))]}"#,
            transportID: transportID
        )
        #expect(bad.payloads(namespace: .media).first?["reason"] == "INVALID_PARAMS")
    }

    @Test func insertAfterASingleLoadBuildsAQueue() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        let sessionID = device.loadAndPlay(transportID: transportID)
        device.media(
            #"{"type":"QUEUE_INSERT","requestId":3,"mediaSessionId":\#(sessionID),"items":[\#(Self.item(2))]}"#,
            transportID: transportID
        )
        let status = try #require(device.engine.mediaStatus(at: device.now))
        #expect(status.items?.compactMap(\.itemID) == [1, 2])
        #expect(status.supportedMediaCommands?.contains(.queueNext) == true)
    }

    @Test func removingTheCurrentItemMovesToTheNext() throws {
        var (device, transportID) = Self.playing(Self.queueLoad())
        device.media(#"{"type":"QUEUE_NEXT","requestId":3,"mediaSessionId":1}"#, transportID: transportID)
        let remove = device.media(
            #"{"type":"QUEUE_REMOVE","requestId":4,"mediaSessionId":1,"itemIds":[2,42]}"#,
            transportID: transportID
        )
        #expect(remove.payloads(namespace: .media, type: "QUEUE_CHANGE").first?["itemIds"] == [2])
        #expect(remove.payloads(namespace: .media, type: "QUEUE_CHANGE").first?["changeType"] == "REMOVE")
        #expect(Self.currentItemID(device) == 3)
        let none = device.media(
            #"{"type":"QUEUE_REMOVE","requestId":5,"mediaSessionId":1,"itemIds":[42]}"#,
            transportID: transportID
        )
        #expect(none.payloads(namespace: .media).first?["reason"] == "INVALID_PARAMS")
        device.media(
            #"{"type":"QUEUE_REMOVE","requestId":6,"mediaSessionId":1,"itemIds":[1,3]}"#,
            transportID: transportID
        )
        let status = try #require(device.engine.mediaStatus(at: device.now))
        #expect(status.playerState == .idle)
        #expect(status.items == nil)
    }

    @Test func reorderMovesItems() throws {
        var (device, transportID) = Self.playing(Self.queueLoad())
        let reorder = device.media(
            #"{"type":"QUEUE_REORDER","requestId":3,"mediaSessionId":1,"itemIds":[3,1]}"#,
            transportID: transportID
        )
        let change = try #require(reorder.payloads(namespace: .media, type: "QUEUE_CHANGE").first)
        #expect(change["changeType"] == "UPDATE")
        #expect(change["reorderItemIds"] == [2, 3, 1])
        #expect(Self.currentItemID(device) == 1)
        device.media(
            #"{"type":"QUEUE_REORDER","requestId":4,"mediaSessionId":1,"itemIds":[1],"insertBefore":2}"#,
            transportID: transportID
        )
        let ids = device.media(
            #"{"type":"QUEUE_GET_ITEM_IDS","requestId":5,"mediaSessionId":1}"#,
            transportID: transportID
        )
        #expect(ids.payloads(namespace: .media).first?["itemIds"] == [1, 2, 3])
        for invalid in [#"[1,1]"#, #"[9]"#, #"[]"#] {
            let refused = device.media(
                #"{"type":"QUEUE_REORDER","requestId":6,"mediaSessionId":1,"itemIds":\#(invalid)}"#,
                transportID: transportID
            )
            #expect(refused.payloads(namespace: .media).first?["reason"] == "INVALID_PARAMS")
        }
    }

    @Test func updateChangesItemsRepeatModeAndCurrentItem() throws {
        var (device, transportID) = Self.playing(Self.queueLoad())
        let update = device.media(
            #"{"type":"QUEUE_UPDATE","requestId":3,"mediaSessionId":1,"repeatMode":"REPEAT_ALL","items":[{"itemId":3,"autoplay":false,"customData":{"note":"x"}}],"currentItemId":3,"currentTime":7}"#,
            transportID: transportID
        )
        #expect(update.payloads(namespace: .media, type: "QUEUE_CHANGE").first?["itemIds"] == [3])
        device.advance(by: .milliseconds(200))
        let status = try #require(device.engine.mediaStatus(at: device.now))
        #expect(status.currentItemID == 3)
        #expect(status.repeatMode == .all)
        #expect(status.playerState == .paused, "the updated item no longer autoplays")
        #expect(status.currentTime == 7)
        #expect(status.media?.contentID == "http://m/3.mp4", "an update without media keeps the item's media")
        let missing = device.media(
            #"{"type":"QUEUE_UPDATE","requestId":4,"mediaSessionId":1,"currentItemId":77}"#,
            transportID: transportID
        )
        #expect(missing.payloads(namespace: .media).first?["reason"] == "INVALID_PARAMS")
    }

    @Test func shuffleKeepsTheCurrentItemFirst() throws {
        let items = (1...8).map { Self.item($0) }
        var (device, transportID) = Self.playing(Self.queueLoad(items: items, startIndex: 3))
        let shuffle = device.media(
            #"{"type":"QUEUE_UPDATE","requestId":3,"mediaSessionId":1,"shuffle":true}"#,
            transportID: transportID
        )
        let order = try #require(
            shuffle.payloads(namespace: .media, type: "QUEUE_CHANGE").first?["reorderItemIds"]?.arrayValue
        )
        #expect(order.first == 4)
        #expect(Set(order.compactMap(\.intValue)) == Set(1...8))
        #expect(Self.currentItemID(device) == 4)
    }

    @Test func itemsAreFetchedByIDAndByRange() throws {
        var (device, transportID) = Self.playing(Self.queueLoad())
        let items = device.media(
            #"{"type":"QUEUE_GET_ITEMS","requestId":3,"mediaSessionId":1,"itemIds":[3,1,99]}"#,
            transportID: transportID
        )
        let reply = try #require(items.payloads(namespace: .media).first)
        #expect(reply["type"] == "QUEUE_ITEMS")
        #expect(reply["items"]?.arrayValue?.compactMap { $0["itemId"]?.intValue } == [3, 1])
        #expect(reply["items"]?[0]?["media"]?["contentId"] == "http://m/3.mp4")
        let range = device.media(
            #"{"type":"QUEUE_GET_ITEM_RANGE","requestId":4,"mediaSessionId":1,"itemId":1,"nextCount":5}"#,
            transportID: transportID
        )
        #expect(range.payloads(namespace: .media).first?["itemIds"] == [2, 3])
        let before = device.media(
            #"{"type":"QUEUE_GET_ITEM_RANGE","requestId":5,"mediaSessionId":1,"itemId":3,"prevCount":1}"#,
            transportID: transportID
        )
        #expect(before.payloads(namespace: .media).first?["itemIds"] == [2])
    }

    @Test func legacyQueueLoad() throws {
        var device = DeviceHarness()
        let transportID = device.startMediaApp()
        device.media(
            #"{"type":"QUEUE_LOAD","requestId":2,"items":[\#(Self.item(1)),\#(Self.item(2))],"startIndex":1,"repeatMode":"REPEAT_SINGLE"}"#,
            transportID: transportID
        )
        let done = device.advance(by: .milliseconds(200))
        #expect(done.payloads(namespace: .media).first?["requestId"] == 2)
        let status = try #require(device.engine.mediaStatus(at: device.now))
        #expect(status.currentItemID == 2)
        #expect(status.repeatMode == .single)
    }

    @Test func queuesAreBounded() {
        var device = DeviceHarness { $0.maximumQueueItems = 3 }
        let transportID = device.startMediaApp()
        let tooMany = device.media(Self.queueLoad(items: (1...4).map { Self.item($0) }), transportID: transportID)
        #expect(tooMany.payloads(namespace: .media).first?["reason"] == "INVALID_PARAMS")
        device.media(Self.queueLoad(), transportID: transportID)
        let insert = device.media(
            #"{"type":"QUEUE_INSERT","requestId":3,"mediaSessionId":1,"items":[\#(Self.item(4))]}"#,
            transportID: transportID
        )
        #expect(insert.payloads(namespace: .media).first?["reason"] == "INVALID_PARAMS")
    }

    @Test func zeroLengthItemsRepeatingWithoutBufferingStillLetTimeMove() throws {
        let items = [Self.item(1, duration: 0), Self.item(2, duration: 0)]
        var (device, _) = Self.playing(Self.queueLoad(items: items, repeatMode: "REPEAT_ALL")) {
            $0.bufferingDelay = .zero
        }
        let start = try #require(device.engine.nextDeadline)
        #expect(start > device.now)
        device.advance(by: .milliseconds(100))
        let status = try #require(device.engine.mediaStatus(at: device.now))
        #expect(status.playerState == .playing)
        #expect(try #require(device.engine.nextDeadline) > device.now)
    }

    @Test func anUnloadableItemLaterInTheQueueStopsPlaybackWithAnError() throws {
        let items = [Self.item(1), #"{"media":{"contentId":"http://m/unloadable.mp4","duration":30}}"#]
        var (device, _) = Self.playing(Self.queueLoad(items: items))
        let actions = device.advance(by: .seconds(31))
        let error = try #require(actions.payloads(namespace: .media, type: "ERROR").first)
        #expect(error["detailedErrorCode"] == 104)
        #expect(error["itemId"] == 2)
        #expect(device.engine.mediaStatus(at: device.now)?.idleReason == .error)
    }
}
