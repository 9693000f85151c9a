public import CastCore
public import CastSender
public import Observation

/// The track selector (as `GCKUIMediaTrackSelectionViewController`): the audio and text
/// tracks of the media with the ones in use, captions off, and the text-track style.
///
/// One audio and one text track are active at a time; choosing one replaces the active
/// track of its kind at once (EDIT_TRACKS_INFO). The style presets are sent with
/// EDIT_TRACKS_INFO `textTrackStyle`.
///
/// ```swift
/// let tracks = TrackSelectionModel(mediaController: media)
/// for option in tracks.state.textTracks { print(option.title, option.isActive) }
/// tracks.selectTextTrack(2)          // captions in track 2
/// tracks.selectTextTrack(nil)        // captions off
/// tracks.setTextTrackStyle(.large)
/// ```
public final class TrackSelectionModel: Observable, Sendable {
    /// What a front end draws.
    public struct State: Sendable, Hashable {
        /// The audio tracks.
        public var audioTracks: [TrackSelectionState.Option]
        /// The text tracks.
        public var textTracks: [TrackSelectionState.Option]
        /// The active audio track, if any.
        public var selectedAudioTrackID: Int?
        /// The active text track; `nil` when captions are off.
        public var selectedTextTrackID: Int?
        /// The style presets offered.
        public var stylePresets: [TextTrackStylePreset]
        /// The preset whose style the receiver reports in use, if one matches.
        public var selectedStylePresetID: String?
        /// The text-track style the receiver reports in use.
        public var textTrackStyle: TextTrackStyle?
        /// Whether tracks can be changed now (media loaded, the receiver edits tracks).
        public var inputEnabled: Bool

        /// Whether there is anything to choose.
        public var hasTracks: Bool { !(audioTracks.isEmpty && textTracks.isEmpty) }
    }

    /// The media controller the selector reads and drives.
    public let mediaController: MediaController
    /// The style presets offered.
    public let stylePresets: [TextTrackStylePreset]

    /// Creates the selector over `mediaController`.
    public init(mediaController: MediaController, stylePresets: [TextTrackStylePreset] = TextTrackStylePreset.all) {
        self.mediaController = mediaController
        self.stylePresets = stylePresets
    }

    /// The current state.
    public var state: State { state(for: mediaController.state) }

    /// The state for a media control state (use with ``MediaController/updates()``).
    public func state(for media: MediaControlState) -> State {
        let tracks = media.tracks
        let style = tracks.textTrackStyle
        return State(
            audioTracks: tracks.audioTracks,
            textTracks: tracks.textTracks,
            selectedAudioTrackID: tracks.audioTracks.first(where: \.isActive)?.id,
            selectedTextTrackID: tracks.textTracks.first(where: \.isActive)?.id,
            stylePresets: stylePresets,
            selectedStylePresetID: style.flatMap { style in stylePresets.first { $0.style == style }?.id },
            textTrackStyle: style,
            inputEnabled: tracks.inputEnabled
        )
    }

    /// Every later state.
    public func updates() -> AsyncStream<State> {
        let media = mediaController.updates()
        return AsyncStream { continuation in
            let task = Task { [weak self] in
                for await value in media {
                    guard let self else { break }
                    continuation.yield(self.state(for: value))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Makes the audio track with `trackID` the active one.
    /// - Returns: the request, or `nil` when input is disabled or `trackID` is no audio track.
    @discardableResult
    public func selectAudioTrack(_ trackID: Int) -> CastRequest? {
        guard state.audioTracks.contains(where: { $0.id == trackID }) else { return nil }
        return mediaController.selectTrack(trackID)
    }

    /// Makes the text track with `trackID` the active one, or turns captions off for `nil`.
    /// - Returns: the request, or `nil` when input is disabled, nothing changes, or
    ///   `trackID` is no text track.
    @discardableResult
    public func selectTextTrack(_ trackID: Int?) -> CastRequest? {
        let current = state
        guard let trackID else {
            guard let active = current.selectedTextTrackID else { return nil }
            return mediaController.deselectTrack(active)
        }
        guard current.textTracks.contains(where: { $0.id == trackID }) else { return nil }
        return mediaController.selectTrack(trackID)
    }

    /// Sends a style preset.
    @discardableResult
    public func setTextTrackStyle(_ preset: TextTrackStylePreset) -> CastRequest? {
        mediaController.setTextTrackStyle(preset.style)
    }
}
