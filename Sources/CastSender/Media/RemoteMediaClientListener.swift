/// A change reported by a ``RemoteMediaClient``, in order.
///
/// A struct, not an enum, so that a later release can add a kind of change without breaking
/// an app's `switch`: switch over ``kind`` and keep a `default`.
public struct RemoteMediaClientEvent: Sendable, Hashable, CustomStringConvertible {
    /// What changed.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The name of the kind (`didUpdateMediaStatus`).
        public let description: String

        private init(_ name: String) { description = name }

        /// A new media session started (a LOAD by this or another sender):
        /// ``RemoteMediaClientEvent/mediaSessionID``.
        public static let didStartMediaSession = Kind("didStartMediaSession")
        /// A MEDIA_STATUS arrived: ``RemoteMediaClientEvent/mediaStatus``, `nil` when there is
        /// no media session any more.
        public static let didUpdateMediaStatus = Kind("didUpdateMediaStatus")
        /// The media metadata changed: ``RemoteMediaClientEvent/mediaMetadata``.
        public static let didUpdateMediaMetadata = Kind("didUpdateMediaMetadata")
        /// The queue changed (items, current item or repeat mode).
        public static let didUpdateQueue = Kind("didUpdateQueue")
        /// The preloaded item changed.
        public static let didUpdatePreloadStatus = Kind("didUpdatePreloadStatus")
        /// QUEUE_ITEM_IDS arrived: ``RemoteMediaClientEvent/itemIDs``.
        public static let didReceiveQueueItemIDs = Kind("didReceiveQueueItemIDs")
        /// QUEUE_CHANGE INSERT arrived: ``RemoteMediaClientEvent/itemIDs`` before
        /// ``RemoteMediaClientEvent/beforeItemID``.
        public static let didInsertQueueItems = Kind("didInsertQueueItems")
        /// QUEUE_CHANGE UPDATE arrived: ``RemoteMediaClientEvent/itemIDs``.
        public static let didUpdateQueueItems = Kind("didUpdateQueueItems")
        /// QUEUE_CHANGE REMOVE arrived: ``RemoteMediaClientEvent/itemIDs``.
        public static let didRemoveQueueItems = Kind("didRemoveQueueItems")
        /// QUEUE_ITEMS arrived: ``RemoteMediaClientEvent/queueItems``.
        public static let didReceiveQueueItems = Kind("didReceiveQueueItems")
    }

    /// The changes as the SDK produces them; the public accessors read this.
    enum Payload: Sendable, Hashable {
        case didStartMediaSession(Int)
        case didUpdateMediaStatus(MediaStatus?)
        case didUpdateMediaMetadata(MediaMetadata?)
        case didUpdateQueue
        case didUpdatePreloadStatus
        case didReceiveQueueItemIDs([Int])
        case didInsertQueueItems([Int], beforeItemID: Int?)
        case didUpdateQueueItems([Int])
        case didRemoveQueueItems([Int])
        case didReceiveQueueItems([QueueItem])
    }

    let payload: Payload

    /// What changed.
    public var kind: Kind {
        switch payload {
        case .didStartMediaSession: .didStartMediaSession
        case .didUpdateMediaStatus: .didUpdateMediaStatus
        case .didUpdateMediaMetadata: .didUpdateMediaMetadata
        case .didUpdateQueue: .didUpdateQueue
        case .didUpdatePreloadStatus: .didUpdatePreloadStatus
        case .didReceiveQueueItemIDs: .didReceiveQueueItemIDs
        case .didInsertQueueItems: .didInsertQueueItems
        case .didUpdateQueueItems: .didUpdateQueueItems
        case .didRemoveQueueItems: .didRemoveQueueItems
        case .didReceiveQueueItems: .didReceiveQueueItems
        }
    }

    /// The ID of the media session that started (``Kind/didStartMediaSession``); `nil` for
    /// other kinds.
    public var mediaSessionID: Int? {
        if case .didStartMediaSession(let id) = payload { id } else { nil }
    }

    /// The merged status (``Kind/didUpdateMediaStatus``); `nil` for other kinds and when the
    /// media session ended.
    public var mediaStatus: MediaStatus? {
        if case .didUpdateMediaStatus(let status) = payload { status } else { nil }
    }

    /// The new metadata (``Kind/didUpdateMediaMetadata``); `nil` for other kinds and when the
    /// media has none.
    public var mediaMetadata: MediaMetadata? {
        if case .didUpdateMediaMetadata(let metadata) = payload { metadata } else { nil }
    }

    /// The queue item IDs the device listed, inserted, updated or removed; empty for other
    /// kinds.
    public var itemIDs: [Int] {
        switch payload {
        case .didReceiveQueueItemIDs(let ids), .didInsertQueueItems(let ids, _), .didUpdateQueueItems(let ids),
            .didRemoveQueueItems(let ids):
            ids
        default: []
        }
    }

    /// The item the inserted items go before (``Kind/didInsertQueueItems``); `nil` at the end
    /// of the queue and for other kinds.
    public var beforeItemID: Int? {
        if case .didInsertQueueItems(_, let before) = payload { before } else { nil }
    }

    /// The items QUEUE_ITEMS carried (``Kind/didReceiveQueueItems``); empty for other kinds.
    public var queueItems: [QueueItem] {
        if case .didReceiveQueueItems(let items) = payload { items } else { [] }
    }

    /// The kind, for logs.
    public var description: String { "RemoteMediaClientEvent(\(kind))" }

    /// An event of kind ``Kind/didStartMediaSession``.
    public static func didStartMediaSession(_ id: Int) -> RemoteMediaClientEvent {
        RemoteMediaClientEvent(payload: .didStartMediaSession(id))
    }
    /// An event of kind ``Kind/didUpdateMediaStatus``.
    public static func didUpdateMediaStatus(_ status: MediaStatus?) -> RemoteMediaClientEvent {
        RemoteMediaClientEvent(payload: .didUpdateMediaStatus(status))
    }
    /// An event of kind ``Kind/didUpdateMediaMetadata``.
    public static func didUpdateMediaMetadata(_ metadata: MediaMetadata?) -> RemoteMediaClientEvent {
        RemoteMediaClientEvent(payload: .didUpdateMediaMetadata(metadata))
    }
    /// An event of kind ``Kind/didUpdateQueue``.
    public static let didUpdateQueue = RemoteMediaClientEvent(payload: .didUpdateQueue)
    /// An event of kind ``Kind/didUpdatePreloadStatus``.
    public static let didUpdatePreloadStatus = RemoteMediaClientEvent(payload: .didUpdatePreloadStatus)
    /// An event of kind ``Kind/didReceiveQueueItemIDs``.
    public static func didReceiveQueueItemIDs(_ ids: [Int]) -> RemoteMediaClientEvent {
        RemoteMediaClientEvent(payload: .didReceiveQueueItemIDs(ids))
    }
    /// An event of kind ``Kind/didInsertQueueItems``.
    public static func didInsertQueueItems(_ ids: [Int], beforeItemID: Int?) -> RemoteMediaClientEvent {
        RemoteMediaClientEvent(payload: .didInsertQueueItems(ids, beforeItemID: beforeItemID))
    }
    /// An event of kind ``Kind/didUpdateQueueItems``.
    public static func didUpdateQueueItems(_ ids: [Int]) -> RemoteMediaClientEvent {
        RemoteMediaClientEvent(payload: .didUpdateQueueItems(ids))
    }
    /// An event of kind ``Kind/didRemoveQueueItems``.
    public static func didRemoveQueueItems(_ ids: [Int]) -> RemoteMediaClientEvent {
        RemoteMediaClientEvent(payload: .didRemoveQueueItems(ids))
    }
    /// An event of kind ``Kind/didReceiveQueueItems``.
    public static func didReceiveQueueItems(_ items: [QueueItem]) -> RemoteMediaClientEvent {
        RemoteMediaClientEvent(payload: .didReceiveQueueItems(items))
    }
}

/// Hears a ``RemoteMediaClient`` (as `GCKRemoteMediaClientListener`); every method has a
/// default that does nothing. Called in order on the context's callback queue.
public protocol RemoteMediaClientListener: AnyObject, Sendable {
    func remoteMediaClient(_ client: RemoteMediaClient, didStartMediaSessionWithID mediaSessionID: Int)
    func remoteMediaClient(_ client: RemoteMediaClient, didUpdate mediaStatus: MediaStatus?)
    func remoteMediaClient(_ client: RemoteMediaClient, didUpdate mediaMetadata: MediaMetadata?)
    func remoteMediaClientDidUpdateQueue(_ client: RemoteMediaClient)
    func remoteMediaClientDidUpdatePreloadStatus(_ client: RemoteMediaClient)
    func remoteMediaClient(_ client: RemoteMediaClient, didReceiveQueueItemIDs itemIDs: [Int])
    func remoteMediaClient(
        _ client: RemoteMediaClient,
        didInsertQueueItemsWithIDs itemIDs: [Int],
        beforeItemWithID: Int?
    )
    func remoteMediaClient(_ client: RemoteMediaClient, didUpdateQueueItemsWithIDs itemIDs: [Int])
    func remoteMediaClient(_ client: RemoteMediaClient, didRemoveQueueItemsWithIDs itemIDs: [Int])
    func remoteMediaClient(_ client: RemoteMediaClient, didReceive queueItems: [QueueItem])
}

extension RemoteMediaClientListener {
    public func remoteMediaClient(_ client: RemoteMediaClient, didStartMediaSessionWithID mediaSessionID: Int) {}
    public func remoteMediaClient(_ client: RemoteMediaClient, didUpdate mediaStatus: MediaStatus?) {}
    public func remoteMediaClient(_ client: RemoteMediaClient, didUpdate mediaMetadata: MediaMetadata?) {}
    public func remoteMediaClientDidUpdateQueue(_ client: RemoteMediaClient) {}
    public func remoteMediaClientDidUpdatePreloadStatus(_ client: RemoteMediaClient) {}
    public func remoteMediaClient(_ client: RemoteMediaClient, didReceiveQueueItemIDs itemIDs: [Int]) {}
    public func remoteMediaClient(
        _ client: RemoteMediaClient,
        didInsertQueueItemsWithIDs itemIDs: [Int],
        beforeItemWithID: Int?
    ) {}
    public func remoteMediaClient(_ client: RemoteMediaClient, didUpdateQueueItemsWithIDs itemIDs: [Int]) {}
    public func remoteMediaClient(_ client: RemoteMediaClient, didRemoveQueueItemsWithIDs itemIDs: [Int]) {}
    public func remoteMediaClient(_ client: RemoteMediaClient, didReceive queueItems: [QueueItem]) {}
}

extension RemoteMediaClientEvent {
    func deliver(to listener: any RemoteMediaClientListener, from client: RemoteMediaClient) {
        switch payload {
        case .didStartMediaSession(let id): listener.remoteMediaClient(client, didStartMediaSessionWithID: id)
        case .didUpdateMediaStatus(let status): listener.remoteMediaClient(client, didUpdate: status)
        case .didUpdateMediaMetadata(let metadata): listener.remoteMediaClient(client, didUpdate: metadata)
        case .didUpdateQueue: listener.remoteMediaClientDidUpdateQueue(client)
        case .didUpdatePreloadStatus: listener.remoteMediaClientDidUpdatePreloadStatus(client)
        case .didReceiveQueueItemIDs(let ids): listener.remoteMediaClient(client, didReceiveQueueItemIDs: ids)
        case .didInsertQueueItems(let ids, let before):
            listener.remoteMediaClient(client, didInsertQueueItemsWithIDs: ids, beforeItemWithID: before)
        case .didUpdateQueueItems(let ids): listener.remoteMediaClient(client, didUpdateQueueItemsWithIDs: ids)
        case .didRemoveQueueItems(let ids): listener.remoteMediaClient(client, didRemoveQueueItemsWithIDs: ids)
        case .didReceiveQueueItems(let items): listener.remoteMediaClient(client, didReceive: items)
        }
    }
}
