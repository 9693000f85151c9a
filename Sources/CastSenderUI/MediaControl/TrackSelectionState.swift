public import CastCore

/// The tracks of the current media and which are active (as the track selector).
public struct TrackSelectionState: Sendable, Hashable {
    /// A selectable track.
    public struct Option: Sendable, Hashable, Identifiable {
        /// The track id.
        public var id: Int
        /// The kind of track.
        public var type: MediaTrackType
        /// The name to show: the track's name, else its language, else "Track N".
        public var title: String
        /// The language tag.
        public var language: String?
        /// Whether the track is active.
        public var isActive: Bool
    }

    /// The audio tracks.
    public var audioTracks: [Option]
    /// The text tracks (subtitles, captions).
    public var textTracks: [Option]
    /// The active track ids.
    public var activeTrackIDs: [Int]
    /// Whether tracks can be changed now.
    public var inputEnabled: Bool
    /// The text-track style in use, as the receiver reports it with the media.
    public var textTrackStyle: TextTrackStyle?

    /// Creates the state from the media's tracks and the active ids.
    public init(
        tracks: [MediaTrack],
        activeTrackIDs: [Int],
        inputEnabled: Bool,
        textTrackStyle: TextTrackStyle? = nil
    ) {
        self.textTrackStyle = textTrackStyle
        let active = Set(activeTrackIDs)
        let option = { (track: MediaTrack) in
            Option(
                id: track.trackID,
                type: track.type,
                title: track.name ?? track.language ?? "Track \(track.trackID)",
                language: track.language,
                isActive: active.contains(track.trackID)
            )
        }
        audioTracks = tracks.filter { $0.type == .audio }.map(option)
        textTracks = tracks.filter { $0.type == .text }.map(option)
        self.activeTrackIDs = activeTrackIDs
        self.inputEnabled = inputEnabled && !(audioTracks.isEmpty && textTracks.isEmpty)
        kinds = Dictionary(tracks.map { ($0.trackID, $0.type) }, uniquingKeysWith: { first, _ in first })
    }

    private var kinds: [Int: MediaTrackType]

    /// Whether there are tracks to choose from (so the tracks button shows).
    public var hasTracks: Bool { !(audioTracks.isEmpty && textTracks.isEmpty) }

    /// The active ids after selecting `trackID`: it replaces the active track of the same
    /// kind (one audio and one text track at a time).
    public func selecting(_ trackID: Int) -> [Int] {
        guard let kind = kinds[trackID] else { return activeTrackIDs }
        var ids = activeTrackIDs.filter { id in
            guard let other = kinds[id] else { return true }
            return other != kind || kind == .video
        }
        if !ids.contains(trackID) { ids.append(trackID) }
        return ids.sorted()
    }

    /// The active ids after turning `trackID` off.
    public func deselecting(_ trackID: Int) -> [Int] {
        activeTrackIDs.filter { $0 != trackID }
    }
}
