import CastSender
import CastSenderUI
import Foundation
import TerminalUI

/// The pictures the app's own screens show (the list's thumbnails, the detail screen's
/// poster): fetched through the context's image cache, as the widgets fetch theirs, decoded
/// (PNG or JPEG) off the main actor, and kept decoded for the screens to draw.
///
/// At most ``capacity`` pictures are kept (the least recently drawn go first) and at most
/// two are decoded at a time; a picture that cannot be fetched or decoded is remembered as
/// such, with why, and not asked for again.
@MainActor
final class PictureLibrary {
    /// How far a picture got.
    enum Phase: Equatable {
        case loading
        case loaded(Picture)
        case unavailable(String)
    }

    /// The most pictures kept decoded.
    let capacity: Int
    private let cache: @Sendable () -> any ImageCache
    private let changed: @MainActor () -> Void
    private var entries: [String: Phase] = [:]
    private var lastUse: [String: UInt64] = [:]
    private var clock: UInt64 = 0
    private var waiting: [String] = []
    private var running = 0
    private let decoder = ImageDecoder(maximumPixels: 4 << 20)

    /// - Parameters:
    ///   - cache: where images come from (read each time, as the widgets read the context's).
    ///   - changed: called when a picture finished loading.
    init(capacity: Int = 48, cache: @escaping @Sendable () -> any ImageCache, changed: @escaping @MainActor () -> Void)
    {
        self.capacity = capacity
        self.cache = cache
        self.changed = changed
    }

    /// The picture at `url` as it is now, starting its fetch when it is new.
    func phase(for url: String) -> Phase {
        clock += 1
        lastUse[url] = clock
        if let phase = entries[url] { return phase }
        entries[url] = .loading
        waiting.append(url)
        startWaiting()
        return .loading
    }

    /// The picture at `url` once loaded.
    func picture(for url: String?) -> Picture? {
        guard let url, case .loaded(let picture) = phase(for: url) else { return nil }
        return picture
    }

    private func startWaiting() {
        while running < 2, !waiting.isEmpty {
            let url = waiting.removeFirst()
            running += 1
            let cache = self.cache
            let decoder = self.decoder
            Task { [weak self] in
                let phase = await Task.detached(priority: .utility) {
                    await Self.load(url, cache: cache(), decoder: decoder)
                }.value
                guard let self else { return }
                self.running -= 1
                self.entries[url] = phase
                self.trim()
                self.startWaiting()
                self.changed()
            }
        }
    }

    nonisolated private static func load(_ url: String, cache: any ImageCache, decoder: ImageDecoder) async -> Phase {
        guard let location = URL(string: url) else { return .unavailable("the image URL is not valid") }
        do {
            let bytes = try await cache.image(for: location)
            let image = try decoder.decode(bytes)
            guard
                let picture = Picture(
                    width: image.width,
                    height: image.height,
                    pixels: image.pixels,
                    identity: identity(of: url)
                )
            else { return .unavailable("the image is empty") }
            return .loaded(picture)
        } catch let error as ImageDecodingError {
            return .unavailable(error.description)
        } catch let error as ImageCacheError {
            return .unavailable(error.description)
        } catch {
            return .unavailable("\(error)")
        }
    }

    /// Drops the least recently used decoded pictures past the capacity.
    private func trim() {
        let loaded = entries.filter { if case .loaded = $0.value { return true } else { return false } }
        guard loaded.count > capacity else { return }
        let oldest = loaded.keys.sorted { (lastUse[$0] ?? 0) < (lastUse[$1] ?? 0) }.prefix(loaded.count - capacity)
        for url in oldest {
            entries[url] = nil
            lastUse[url] = nil
        }
    }

    /// A stable number for a URL (FNV-1a), naming its picture to the renderer.
    nonisolated static func identity(of url: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in url.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
