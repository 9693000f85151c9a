import CastCore
import Foundation

/// A realistic MEDIA_STATUS payload (about 2 KB) as a CAF receiver sends it while playing
/// the second item of a three-item queue during an ad break: media with metadata and images,
/// two tracks, ad breaks and clips, queue items and a break status.
let mediaStatusFixture = #"""
    {"type":"MEDIA_STATUS","status":[{"mediaSessionId":1,"playbackRate":1,"playerState":"PLAYING","currentTime":123.456,"supportedMediaCommands":12303,"volume":{"level":1,"muted":false},"activeTrackIds":[1],"media":{"contentId":"https://commondatastorage.googleapis.com/gtv-videos-bucket/CastVideos/hls/BigBuckBunny.m3u8","contentUrl":"https://commondatastorage.googleapis.com/gtv-videos-bucket/CastVideos/hls/BigBuckBunny.m3u8","streamType":"BUFFERED","contentType":"application/x-mpegURL","metadata":{"metadataType":1,"title":"Big Buck Bunny","subtitle":"Blender Foundation","studio":"Blender Foundation","releaseDate":"2008-05-30","images":[{"url":"https://commondatastorage.googleapis.com/gtv-videos-bucket/CastVideos/images/480x270/BigBuckBunny.jpg","width":480,"height":270},{"url":"https://commondatastorage.googleapis.com/gtv-videos-bucket/CastVideos/images/780x1200/BigBuckBunny-780x1200.jpg","width":780,"height":1200}]},"duration":596.474195,"tracks":[{"trackId":1,"type":"TEXT","trackContentId":"https://commondatastorage.googleapis.com/gtv-videos-bucket/CastVideos/tracks/BigBuckBunny-en.vtt","trackContentType":"text/vtt","subtype":"SUBTITLES","name":"English Subtitle","language":"en-US"},{"trackId":2,"type":"AUDIO","name":"English","language":"en"}],"breakClips":[{"id":"bc1","duration":15,"title":"Ad 1","contentUrl":"https://example.com/ads/ad1.mp4","contentType":"video/mp4","whenSkippable":5}],"breaks":[{"id":"b1","position":0,"duration":15,"breakClipIds":["bc1"],"isWatched":false,"isEmbedded":false}]},"currentItemId":2,"repeatMode":"REPEAT_OFF","items":[{"itemId":1,"autoplay":true,"startTime":0,"preloadTime":20,"media":{"contentId":"https://example.com/media/elephants-dream.mp4","streamType":"BUFFERED","contentType":"video/mp4","duration":653.8}},{"itemId":2,"autoplay":true,"startTime":0,"preloadTime":20,"activeTrackIds":[1]},{"itemId":3,"autoplay":true,"startTime":0,"preloadTime":20,"media":{"contentId":"https://example.com/media/sintel.mp4","streamType":"BUFFERED","contentType":"video/mp4","duration":888}}],"breakStatus":{"breakId":"b1","breakClipId":"bc1","currentBreakTime":3.2,"currentBreakClipTime":3.2,"whenSkippable":5},"customData":{"playerVersion":"3.0.0"}}],"requestId":7}
    """#

/// The fixture framed as a device sends it, `count` times with the position moving a second
/// each time, as a playing device's statuses do (so that each differs from the one before).
func mediaStatusFrames(_ count: Int) throws -> [[UInt8]] {
    try (0..<count).map { index in
        let text = mediaStatusFixture.replacingOccurrences(
            of: #""currentTime":123.456"#,
            with: #""currentTime":\#(123.456 + Double(index))"#
        )
        let message = CastMessage(
            sourceID: "9c4f2b1e-7d3a-4c5b-8e6f-1a2b3c4d5e6f",
            destinationID: "sender-0",
            namespace: .media,
            text: text
        )
        return try CastFrameEncoder.encode(message.serializedBytes())
    }
}
