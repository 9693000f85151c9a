/// Why a LOAD failed, as a Cast receiver reports it in its `ERROR` message.
struct MediaLoadFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `detailedErrorCode` name (cast-reference §7).
    var detailedErrorName: String
    /// The numeric `detailedErrorCode`.
    var detailedErrorCode: Int
    /// What went wrong, for logs.
    var reason: String
    /// Whether the host could not be resolved or reached (no HTTP answer came): the failure
    /// ``MediaMode/auto`` replaces with simulated playback.
    var isUnreachable = false

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.detailedErrorCode == rhs.detailedErrorCode }

    var description: String { "\(detailedErrorName) (\(detailedErrorCode)): \(reason)" }

    static func mediaNetwork(_ reason: String) -> Self {
        .init(detailedErrorName: "MEDIA_NETWORK", detailedErrorCode: 103, reason: reason)
    }
    static func notSupported(_ reason: String) -> Self {
        .init(detailedErrorName: "MEDIA_SRC_NOT_SUPPORTED", detailedErrorCode: 104, reason: reason)
    }
    static func decode(_ reason: String) -> Self {
        .init(detailedErrorName: "MEDIA_DECODE", detailedErrorCode: 102, reason: reason)
    }
    static func hlsMasterNetwork(_ reason: String) -> Self {
        .init(detailedErrorName: "HLS_NETWORK_MASTER_PLAYLIST", detailedErrorCode: 311, reason: reason)
    }
    static func hlsPlaylistNetwork(_ reason: String) -> Self {
        .init(detailedErrorName: "HLS_NETWORK_PLAYLIST", detailedErrorCode: 312, reason: reason)
    }
    static func hlsManifestMaster(_ reason: String) -> Self {
        .init(detailedErrorName: "HLS_MANIFEST_MASTER", detailedErrorCode: 411, reason: reason)
    }
    static func hlsManifestPlaylist(_ reason: String) -> Self {
        .init(detailedErrorName: "HLS_MANIFEST_PLAYLIST", detailedErrorCode: 412, reason: reason)
    }

    static func dashNetwork(_ reason: String) -> Self {
        .init(detailedErrorName: "DASH_NETWORK", detailedErrorCode: 321, reason: reason)
    }
    static func dashManifestUnknown(_ reason: String) -> Self {
        .init(detailedErrorName: "DASH_MANIFEST_UNKNOWN", detailedErrorCode: 420, reason: reason)
    }
    static func dashManifestNoPeriods(_ reason: String) -> Self {
        .init(detailedErrorName: "DASH_MANIFEST_NO_PERIODS", detailedErrorCode: 421, reason: reason)
    }
    static func textUnknown(_ reason: String) -> Self {
        .init(detailedErrorName: "TEXT_UNKNOWN", detailedErrorCode: 600, reason: reason)
    }
    static func imageError(_ reason: String) -> Self {
        .init(detailedErrorName: "IMAGE_ERROR", detailedErrorCode: 903, reason: reason)
    }

    /// The failure a receiver reports for a probe error in plain media.
    init(_ error: MediaProbeError) {
        self = error.code == .notSupported ? .notSupported(error.description) : .decode(error.description)
    }

    private init(detailedErrorName: String, detailedErrorCode: Int, reason: String) {
        self.detailedErrorName = detailedErrorName
        self.detailedErrorCode = detailedErrorCode
        self.reason = reason
    }
}
