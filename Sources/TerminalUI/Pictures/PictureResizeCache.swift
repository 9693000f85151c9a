import Synchronization

/// Keeps pictures resized for drawing in cells, so a screen that draws the same pictures in
/// every frame resamples each once. Holds at most ``capacity`` resized pictures and starts
/// over when full.
public final class PictureResizeCache: Sendable {
    private struct Key: Hashable {
        var identity: UInt64
        var sourceWidth: Int
        var sourceHeight: Int
        var width: Int
        var height: Int
        var background: Int
    }

    /// The most resized pictures kept.
    public let capacity: Int
    private let entries = Mutex<[Key: Picture]>([:])

    /// Creates an empty cache.
    public init(capacity: Int = 128) {
        self.capacity = max(1, capacity)
    }

    /// `picture` resized to `width` × `height` over `background` (see ``Picture/resized(width:height:over:)``).
    public func resized(
        _ picture: Picture,
        width: Int,
        height: Int,
        over background: (red: UInt8, green: UInt8, blue: UInt8)
    ) -> Picture {
        let key = Key(
            identity: picture.identity,
            sourceWidth: picture.width,
            sourceHeight: picture.height,
            width: width,
            height: height,
            background: Int(background.red) << 16 | Int(background.green) << 8 | Int(background.blue)
        )
        if let hit = entries.withLock({ $0[key] }) { return hit }
        let resized = picture.resized(width: width, height: height, over: background)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll() }
            entries[key] = resized
        }
        return resized
    }
}
