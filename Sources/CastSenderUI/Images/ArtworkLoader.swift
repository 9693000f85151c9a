import CastSender
import CastSync
import Foundation

/// Fetches and decodes the image one widget shows, one URL at a time: a new URL cancels the
/// work for the previous one. The owner asks for the artwork of a URL when it computes its
/// state and hears ``onChange`` when the phase moves on.
final class ArtworkLoader: Sendable {
    private struct State {
        var url: String?
        var phase: Artwork.Phase = .loading
        var task: Task<Void, Never>?
    }

    private let cache: @Sendable () -> any ImageCache
    private let decoder: ImageDecoder
    private let logger: CastLogger
    private let state = Locked(State())
    /// In a struct: a bare function value as `Locked`'s state would gain two thunks per access.
    private let changed = Locked(ChangeHandler())

    private struct ChangeHandler {
        var call: (@Sendable () -> Void)?
    }

    /// - Parameters:
    ///   - cache: where images come from (read each time, so the context's cache can change).
    ///   - maximumPixels: the largest image decoded.
    init(cache: @escaping @Sendable () -> any ImageCache, logger: CastLogger, maximumPixels: Int = 4 << 20) {
        self.cache = cache
        self.logger = logger
        decoder = ImageDecoder(maximumPixels: maximumPixels)
    }

    deinit { state.withLock { $0.task?.cancel() } }

    /// Called (from any thread) when the artwork of the current URL changes phase.
    var onChange: (@Sendable () -> Void)? {
        get { changed.withLock { $0.call } }
        set { changed.withLock { $0.call = newValue } }
    }

    /// The artwork for `url`, starting its fetch when `url` is new; `nil` for no URL.
    func artwork(for url: String?) -> Artwork? {
        guard let url else {
            let old = state.withLock { state -> Task<Void, Never>? in
                defer { state = State() }
                return state.task
            }
            old?.cancel()
            return nil
        }
        let (phase, start) = state.withLock { state -> (Artwork.Phase, Bool) in
            if state.url == url { return (state.phase, false) }
            state.task?.cancel()
            state.url = url
            state.phase = .loading
            return (.loading, true)
        }
        if start { load(url) }
        return Artwork(url: url, phase: phase)
    }

    private func load(_ url: String) {
        let cache = self.cache
        let decoder = self.decoder
        let logger = self.logger
        let task = Task { [weak self] in
            let phase: Artwork.Phase
            if let location = URL(string: url) {
                do throws(ImageCacheError) {
                    let bytes = try await cache().image(for: location)
                    do throws(ImageDecodingError) {
                        phase = .loaded(try decoder.decode(bytes))
                    } catch {
                        logger.log(
                            .debug,
                            .ui,
                            "artwork not decoded",
                            metadata: ["cast.url": url, "cast.error": "\(error)"]
                        )
                        phase = .unavailable(error.description)
                    }
                } catch {
                    if error.kind == .cancelled { return }
                    logger.log(
                        .debug,
                        .ui,
                        "artwork not fetched",
                        metadata: ["cast.url": url, "cast.error": "\(error)"]
                    )
                    phase = .unavailable(error.description)
                }
            } else {
                phase = .unavailable("the image URL is not valid")
            }
            guard !Task.isCancelled, let self else { return }
            let current = self.state.withLock { state -> Bool in
                guard state.url == url else { return false }
                state.phase = phase
                return true
            }
            if current { self.onChange?() }
        }
        let stale = state.withLock { state -> Bool in
            guard state.url == url else { return true }
            state.task = task
            return false
        }
        if stale { task.cancel() }
    }
}
