/// An image a widget shows, as it is being fetched and decoded: what the front end draws
/// (the picture once ``Phase/loaded(_:)``, else a placeholder such as the title).
public struct Artwork: Sendable, Hashable {
    /// How far the image got.
    public enum Phase: Sendable, Hashable {
        /// Being fetched through the image cache or decoded.
        case loading
        /// Decoded.
        case loaded(RGBAImage)
        /// It cannot be shown: why (the fetch failed, the format is not decoded, …).
        case unavailable(String)
    }

    /// The image's URL, as the image picker chose it.
    public var url: String
    /// How far the image got.
    public var phase: Phase

    /// Creates a value.
    public init(url: String, phase: Phase) {
        self.url = url
        self.phase = phase
    }

    /// The decoded image, once loaded.
    public var image: RGBAImage? {
        if case .loaded(let image) = phase { return image }
        return nil
    }
}
