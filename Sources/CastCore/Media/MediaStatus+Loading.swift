extension MediaStatus {
    /// Whether a load is under way although the main state says otherwise: `playerState`
    /// `IDLE` with `extendedStatus.playerState` `LOADING`, as receivers report the time
    /// between a `LOAD` and the first frame.
    public var isLoading: Bool {
        playerState == .idle && extendedStatus?.playerState == .loading
    }

    /// The state to show: `LOADING` while ``isLoading``, else `playerState` (GCK reports a
    /// load in progress the same way).
    public var effectivePlayerState: PlayerState? {
        isLoading ? .loading : playerState
    }

    /// The media to show: `media`, else, while ``isLoading``, the media being loaded.
    public var effectiveMedia: MediaInformation? {
        media ?? (isLoading ? extendedStatus?.media : nil)
    }
}
