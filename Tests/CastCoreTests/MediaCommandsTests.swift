import Testing

@testable import CastCore

@Suite struct MediaCommandsTests {
    @Test(arguments: [
        (MediaCommands.pause, 1), (.seek, 2), (.streamVolume, 4), (.streamMute, 8), (.skipForward, 16),
        (.skipBackward, 32), (.queueNext, 64), (.queuePrevious, 128), (.queueShuffle, 256), (.skipAd, 512),
        (.queueRepeatAll, 1024), (.queueRepeatOne, 2048), (.queueRepeat, 3072), (.editTracks, 4096),
        (.playbackRate, 8192), (.like, 16384), (.dislike, 32768), (.follow, 65536), (.unfollow, 131_072),
        (.streamTransfer, 262_144), (.allBasicMedia, 12303),
    ])
    func bitValues(commands: MediaCommands, value: Int) {
        #expect(commands.rawValue == value)
    }

    @Test func codesAsAnIntegerKeepingUnknownBits() throws {
        let commands = try JSONPayloadDecoder().decode(MediaCommands.self, from: "8401103")
        #expect(commands.contains(.allBasicMedia))
        #expect(commands.contains(MediaCommands(rawValue: 1 << 23)))
        #expect(!commands.contains(.skipAd))
        #expect(try JSONPayloadEncoder().encode(commands) == "8401103")
        let error = try #require(
            decodingError { _ = try JSONPayloadDecoder().decode(MediaCommands.self, from: #""12303""#) }
        )
        #expect(error.code == .wrongType)
    }
}
