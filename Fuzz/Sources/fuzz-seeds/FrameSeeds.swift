@testable import CastCore

/// Byte streams of framed messages.
enum FrameSeeds {
    static func seeds() throws -> SeedSet {
        var set = SeedSet(target: "frame")
        let bodies = CastMessageSeeds.messages.map { $0.message.serializedBytes() }
        let frames = try bodies.map { body throws(FrameError) in try CastFrameEncoder.encode(body) }
        set.add("one-frame", frames[0])
        set.add("session-start", frames.prefix(5).flatMap { $0 })
        set.add("every-message", frames.flatMap { $0 })
        set.add("frame-and-partial", frames[0] + frames[1].prefix(frames[1].count / 2))
        set.add("partial-header", Array(frames[2].prefix(2)))
        set.add("frame-then-empty-frame", frames[2] + [0, 0, 0, 0])
        set.add("frame-then-too-large", frames[2] + [0, 1, 0, 1])
        let large = CastMessage(
            sourceID: "sender-0",
            destinationID: "receiver-0",
            namespace: "urn:x-cast:com.example.bulk",
            binary: (0..<60_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        )
        set.add("large-frame", try CastFrameEncoder.encode(large.serializedBytes()))
        set.add("maximum-body", try CastFrameEncoder.encode([UInt8](repeating: 0x41, count: 65_536)))
        return set
    }
}
