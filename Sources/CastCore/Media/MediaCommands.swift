/// The media commands a receiver accepts now (`supportedMediaCommands` of `MEDIA_STATUS`).
///
/// Encoded as the integer bit mask; unknown bits are kept.
public struct MediaCommands: OptionSet, Codable, Sendable, Hashable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Pause and play (bit 0).
    public static let pause = MediaCommands(rawValue: 1 << 0)
    /// Seek (bit 1).
    public static let seek = MediaCommands(rawValue: 1 << 1)
    /// Change the stream volume (bit 2).
    public static let streamVolume = MediaCommands(rawValue: 1 << 2)
    /// Mute the stream (bit 3).
    public static let streamMute = MediaCommands(rawValue: 1 << 3)
    /// Skip forward (bit 4, legacy).
    public static let skipForward = MediaCommands(rawValue: 1 << 4)
    /// Skip backward (bit 5, legacy).
    public static let skipBackward = MediaCommands(rawValue: 1 << 5)
    /// Go to the next queue item (bit 6).
    public static let queueNext = MediaCommands(rawValue: 1 << 6)
    /// Go to the previous queue item (bit 7).
    public static let queuePrevious = MediaCommands(rawValue: 1 << 7)
    /// Shuffle the queue (bit 8).
    public static let queueShuffle = MediaCommands(rawValue: 1 << 8)
    /// Skip the playing ad (bit 9).
    public static let skipAd = MediaCommands(rawValue: 1 << 9)
    /// Repeat the whole queue (bit 10).
    public static let queueRepeatAll = MediaCommands(rawValue: 1 << 10)
    /// Repeat one item (bit 11).
    public static let queueRepeatOne = MediaCommands(rawValue: 1 << 11)
    /// Both repeat modes.
    public static let queueRepeat: MediaCommands = [.queueRepeatAll, .queueRepeatOne]
    /// Change the active tracks (bit 12).
    public static let editTracks = MediaCommands(rawValue: 1 << 12)
    /// Change the playback rate (bit 13).
    public static let playbackRate = MediaCommands(rawValue: 1 << 13)
    /// Like (bit 14).
    public static let like = MediaCommands(rawValue: 1 << 14)
    /// Dislike (bit 15).
    public static let dislike = MediaCommands(rawValue: 1 << 15)
    /// Follow (bit 16).
    public static let follow = MediaCommands(rawValue: 1 << 16)
    /// Unfollow (bit 17).
    public static let unfollow = MediaCommands(rawValue: 1 << 17)
    /// Transfer the stream to another device (bit 18).
    public static let streamTransfer = MediaCommands(rawValue: 1 << 18)
    /// What CAF receivers support for plain media: pause, seek, volume, mute, tracks and rate (12303).
    public static let allBasicMedia: MediaCommands = [
        .pause, .seek, .streamVolume, .streamMute, .editTracks, .playbackRate,
    ]

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension MediaCommands: TokenDecodable, TokenEncodable {}
