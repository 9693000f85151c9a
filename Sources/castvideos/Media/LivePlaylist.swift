import Foundation

/// The playlist of the built-in live stream: an HLS media playlist without an end, whose
/// window of three segments moves on with the clock, cycling through the segments made
/// once (a discontinuity each time the cycle starts again), as a live encoder's would.
struct LivePlaylist {
    var segmentSeconds: Int
    var segmentCount: Int
    var segmentName: (Int) -> String
    /// Segments listed at a time.
    var window = 3

    /// The playlist at `date`.
    func text(at date: Date) -> String {
        let sequence = max(0, Int(date.timeIntervalSince1970) / max(1, segmentSeconds))
        var lines = [
            "#EXTM3U",
            "#EXT-X-VERSION:3",
            "#EXT-X-TARGETDURATION:\(segmentSeconds)",
            "#EXT-X-MEDIA-SEQUENCE:\(sequence)",
            "#EXT-X-DISCONTINUITY-SEQUENCE:\(sequence / max(1, segmentCount))",
        ]
        for number in sequence..<(sequence + window) {
            let index = number % max(1, segmentCount)
            if index == 0, number != sequence { lines.append("#EXT-X-DISCONTINUITY") }
            lines.append("#EXTINF:\(segmentSeconds).000,")
            lines.append(segmentName(index))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
