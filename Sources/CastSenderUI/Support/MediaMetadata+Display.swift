import CastCore

extension MediaMetadata {
    /// The line shown under the title: the subtitle, or what the metadata type offers
    /// instead (studio, series, artist, album, book).
    var displaySubtitle: String? {
        if let subtitle { return subtitle }
        switch metadataType {
        case .movie: return studio
        case .tvShow:
            guard let seriesTitle else { return nil }
            if let season, let episode { return "\(seriesTitle) · S\(season) E\(episode)" }
            return seriesTitle
        case .musicTrack: return artist ?? albumArtist ?? albumName
        case .photo: return location ?? artist
        default: return artist ?? studio ?? seriesTitle ?? bookTitle
        }
    }
}
