/// A change reported by a ``RemoteMediaClient``, in order.
public enum RemoteMediaClientEvent: Sendable, Hashable {
    /// A new media session started (a LOAD by this or another sender).
    case didStartMediaSession(Int)
    /// A MEDIA_STATUS arrived; `nil` when there is no media session any more.
    case didUpdateMediaStatus(MediaStatus?)
    /// The media metadata changed.
    case didUpdateMediaMetadata(MediaMetadata?)
    /// The queue changed (items, current item or repeat mode).
    case didUpdateQueue
    /// The preloaded item changed.
    case didUpdatePreloadStatus
    /// QUEUE_ITEM_IDS arrived.
    case didReceiveQueueItemIDs([Int])
    /// QUEUE_CHANGE INSERT arrived.
    case didInsertQueueItems([Int], beforeItemID: Int?)
    /// QUEUE_CHANGE UPDATE arrived.
    case didUpdateQueueItems([Int])
    /// QUEUE_CHANGE REMOVE arrived.
    case didRemoveQueueItems([Int])
    /// QUEUE_ITEMS arrived.
    case didReceiveQueueItems([QueueItem])
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
        switch self {
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
