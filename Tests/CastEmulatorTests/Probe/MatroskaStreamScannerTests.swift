import CastTestSupport
import Testing

@testable import CastEmulator

@Suite struct MatroskaStreamScannerTests {
    typealias B = MatroskaBuilder

    /// 3 clusters of 1 s (timecodes in ms), the last block at 2.96 s.
    static func stream(unknownClusters: Bool = false, scale: UInt64 = 1_000_000) -> [UInt8] {
        let clusters = (0..<3).flatMap { index in
            B.cluster(
                timecode: UInt64(index) * 1000 * 1_000_000 / scale,
                blocks: [0, 480, 960].map {
                    Int16(Int($0) * 1_000_000 / Int(scale))
                },
                unknownSize: unknownClusters
            )
        }
        return B.file(
            segment: [B.info(durationMilliseconds: nil, scale: scale), B.tracks()],
            unknownSegmentSize: true
        ) + clusters
    }

    @Test(arguments: [false, true])
    func followsTheLatestBlockWhateverTheChunking(unknownClusters: Bool) {
        let bytes = Self.stream(unknownClusters: unknownClusters)
        var whole = MatroskaStreamScanner()
        whole.feed(bytes)
        #expect(whole.seconds == 2.96)
        #expect(!whole.isBroken)
        #expect(whole.bytesRead == bytes.count)

        var dripped = MatroskaStreamScanner()
        for byte in bytes { dripped.feed([byte]) }
        #expect(dripped.seconds == 2.96)

        var generator = SplitMix64(seed: 3)
        var chunked = MatroskaStreamScanner()
        var index = 0
        while index < bytes.count {
            let count = min(bytes.count - index, Int(generator.next() % 300) + 1)
            chunked.feed(bytes[index..<(index + count)])
            index += count
        }
        #expect(chunked.seconds == 2.96)
    }

    @Test func usesTheStreamsTimecodeScale() {
        var scanner = MatroskaStreamScanner()
        scanner.feed(Self.stream(scale: 10_000_000))
        #expect(scanner.seconds == 2.96)
    }

    @Test func reportsNothingBeforeTheFirstBlock() {
        var scanner = MatroskaStreamScanner()
        scanner.feed(B.file(segment: [B.info(durationMilliseconds: nil), B.tracks()], unknownSegmentSize: true))
        #expect(scanner.seconds == nil)
        #expect(!scanner.isBroken)
    }

    @Test func stopsAtBrokenInputAndKeepsWhatItHad() {
        var scanner = MatroskaStreamScanner()
        scanner.feed(Self.stream() + [0x00, 0x00, 0x00])
        #expect(scanner.isBroken)
        #expect(scanner.seconds == 2.96)
        let before = scanner.bytesRead
        scanner.feed(B.cluster(timecode: 9000, blocks: [0]))
        #expect(scanner.seconds == 2.96)
        #expect(scanner.bytesRead == before)
    }

    @Test func randomInputNeverCrashes() {
        var generator = SplitMix64(seed: 11)
        let prefix = B.file(segment: [B.info(durationMilliseconds: nil)], unknownSegmentSize: true)
        for _ in 0..<500 {
            var scanner = MatroskaStreamScanner()
            scanner.feed(prefix)
            let noise = (0..<Int(generator.next() % 200)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            scanner.feed(noise)
            if let seconds = scanner.seconds { #expect(seconds.isFinite && seconds >= 0) }
        }
    }
}
