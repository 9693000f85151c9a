import CastSync
import Dispatch

/// A change of a ``MediaQueue``, for queue UIs.
public enum MediaQueueEvent: Sendable, Hashable {
    /// The whole list changed; reload everything.
    case didReloadItems
    /// Items were inserted at these indexes.
    case didInsertItems(at: [Int])
    /// Items at these indexes changed or were fetched.
    case didUpdateItems(at: [Int])
    /// Items at these indexes were removed.
    case didRemoveItems(at: [Int])
}

/// Hears a ``MediaQueue`` (as `GCKMediaQueueDelegate`); methods default to doing nothing.
public protocol MediaQueueListener: AnyObject, Sendable {
    func mediaQueueDidReloadItems(_ queue: MediaQueue)
    func mediaQueue(_ queue: MediaQueue, didInsertItemsAt indexes: [Int])
    func mediaQueue(_ queue: MediaQueue, didUpdateItemsAt indexes: [Int])
    func mediaQueue(_ queue: MediaQueue, didRemoveItemsAt indexes: [Int])
}

extension MediaQueueListener {
    public func mediaQueueDidReloadItems(_ queue: MediaQueue) {}
    public func mediaQueue(_ queue: MediaQueue, didInsertItemsAt indexes: [Int]) {}
    public func mediaQueue(_ queue: MediaQueue, didUpdateItemsAt indexes: [Int]) {}
    public func mediaQueue(_ queue: MediaQueue, didRemoveItemsAt indexes: [Int]) {}
}

/// The receiver's queue as a list for UIs (as `GCKMediaQueue`): every item id, and items
/// fetched on demand into an LRU cache. Edits go through ``RemoteMediaClient``.
public final class MediaQueue: Sendable {
    /// The queue as a list shows it at one moment: every item id, and the items fetched so far.
    public struct Snapshot: Sendable, Hashable {
        /// Every item id, in queue order.
        public var itemIDs: [Int]
        /// The items fetched so far, by id: the most recently used ones, as many as the
        /// queue caches. Ask ``MediaQueue/item(at:fetchIfNeeded:)`` to fetch others.
        public var cachedItems: [Int: QueueItem]

        /// Creates a snapshot.
        public init(itemIDs: [Int] = [], cachedItems: [Int: QueueItem] = [:]) {
            self.itemIDs = itemIDs
            self.cachedItems = cachedItems
        }

        /// The item at `index` when it was fetched; `nil` when it was not, or out of range.
        public func item(at index: Int) -> QueueItem? {
            itemIDs.indices.contains(index) ? cachedItems[itemIDs[index]] : nil
        }
    }

    private struct State {
        var cache = MediaQueueCache()
        var fetchScheduled = false
        let observed = ObservedValue(Snapshot())

        /// Hands the cache as it is now to ``MediaQueue/observeQueue()``; called after each
        /// change, inside the lock, so the stream sees changes in order.
        func publish() {
            observed.update(Snapshot(itemIDs: cache.itemIDs, cachedItems: cache.items))
        }
    }

    private let state = Locked(State())
    private let listeners: ListenerSet<any MediaQueueListener, MediaQueueEvent>
    private let clientBox = Locked<WeakClient>(WeakClient())
    private let callbackQueue: DispatchQueue
    private let logger: CastLogger

    private struct WeakClient {
        weak var value: RemoteMediaClient?
    }

    init(callbackQueue: DispatchQueue, logger: CastLogger) {
        self.callbackQueue = callbackQueue
        self.logger = logger
        listeners = ListenerSet(queue: callbackQueue)
    }

    var client: RemoteMediaClient? {
        get { clientBox.withLock { $0.value } }
        set { clientBox.withLock { $0.value = newValue } }
    }

    /// The number of items in the queue.
    public var itemCount: Int { state.withLock { $0.cache.itemCount } }

    /// The number of items held in the cache.
    public var cachedItemCount: Int { state.withLock { $0.cache.cachedItemCount } }

    /// Every item id, in queue order.
    public var itemIDs: [Int] { state.withLock { $0.cache.itemIDs } }

    /// The id of the item at `index`, or `nil` when out of range.
    public func itemID(at index: Int) -> Int? { state.withLock { $0.cache.itemID(at: index) } }

    /// The index of the item with `itemID`, or `nil`.
    public func index(ofItemID itemID: Int) -> Int? { state.withLock { $0.cache.index(of: itemID) } }

    /// The item at `index` if cached; otherwise `nil`, and (when `fetchIfNeeded`) the item is
    /// fetched and reported through ``MediaQueueEvent/didUpdateItems(at:)``.
    public func item(at index: Int, fetchIfNeeded: Bool = true) -> QueueItem? {
        let (item, schedule) = state.withLock { state -> (QueueItem?, Bool) in
            let item = state.cache.item(at: index, fetch: fetchIfNeeded)
            guard item == nil, fetchIfNeeded, !state.fetchScheduled else { return (item, false) }
            state.fetchScheduled = true
            return (nil, true)
        }
        if schedule { callbackQueue.async { [weak self] in self?.flushFetches() } }
        return item
    }

    /// Fetches the id list again.
    public func reload() {
        logger.log(.debug, .queue, "fetching queue item ids")
        client?.queueFetchItemIDs()
    }

    /// Adds a listener (held weakly).
    public func add(_ listener: any MediaQueueListener) { listeners.add(listener) }

    /// Removes a listener.
    public func remove(_ listener: any MediaQueueListener) { listeners.remove(listener) }

    /// A stream of every later change.
    public func events() -> AsyncStream<MediaQueueEvent> { listeners.stream() }

    /// A stream of the queue now (its item ids and the items fetched so far), then the queue
    /// after every change: items inserted, removed, reordered or fetched.
    public func observeQueue() -> AsyncStream<Snapshot> { state.withLock { $0.observed }.stream() }

    // MARK: Client side

    func reset() {
        let changes = state.withLock { state in
            defer { state.publish() }
            return state.cache.clear()
        }
        if !changes.isEmpty { logger.log(.debug, .queue, "queue cleared") }
        report(changes)
    }

    func queueChanged() {
        reload()
    }

    func receivedItemIDs(_ ids: [Int]) {
        logger.log(.debug, .queue, "queue item ids received", metadata: ["cast.count": "\(ids.count)"])
        report(
            state.withLock { state in
                defer { state.publish() }
                return state.cache.setItemIDs(ids)
            }
        )
    }

    func receivedItems(_ items: [QueueItem]) {
        logger.log(.debug, .queue, "queue items received", metadata: ["cast.count": "\(items.count)"])
        report(
            state.withLock { state in
                defer { state.publish() }
                return state.cache.store(items)
            }
        )
    }

    func receivedChange(_ change: QueueChangeMessage) {
        logger.log(
            .debug,
            .queue,
            "queue changed",
            metadata: [
                "cast.change": change.changeType.rawValue, "cast.count": "\(change.itemIDs?.count ?? 0)",
            ]
        )
        let (changes, needsReload) = state.withLock { state in
            defer { state.publish() }
            return state.cache.apply(change)
        }
        report(changes)
        if needsReload { reload() }
    }

    private func flushFetches() {
        let batch = state.withLock { state -> [Int] in
            state.fetchScheduled = false
            return state.cache.takeFetchBatch()
        }
        guard !batch.isEmpty, let client else { return }
        logger.log(.debug, .queue, "fetching queue items", metadata: ["cast.count": "\(batch.count)"])
        let request = client.queueFetchItems(forIDs: batch)
        Task { [weak self] in
            if case .completed = await request.waitForOutcome() { return }
            self?.state.withLock { $0.cache.fetchFailed(batch) }
        }
    }

    private func report(_ changes: [MediaQueueCache.Change]) {
        for change in changes {
            let event: MediaQueueEvent =
                switch change {
                case .reloaded: .didReloadItems
                case .inserted(let indexes): .didInsertItems(at: indexes)
                case .updated(let indexes): .didUpdateItems(at: indexes)
                case .removed(let indexes): .didRemoveItems(at: indexes)
                }
            listeners.emit(event) { [self] listener, event in
                switch event {
                case .didReloadItems: listener.mediaQueueDidReloadItems(self)
                case .didInsertItems(let indexes): listener.mediaQueue(self, didInsertItemsAt: indexes)
                case .didUpdateItems(let indexes): listener.mediaQueue(self, didUpdateItemsAt: indexes)
                case .didRemoveItems(let indexes): listener.mediaQueue(self, didRemoveItemsAt: indexes)
                }
            }
        }
    }
}
