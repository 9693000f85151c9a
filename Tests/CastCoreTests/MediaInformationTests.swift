import Testing

@testable import CastCore

@Suite struct MediaInformationTests {
    @Test func copiesAreIndependent() {
        let original = MediaInformation(contentID: "a", streamType: .buffered, duration: 10)
        var copy = original
        #expect(copy == original)
        copy.contentID = "b"
        copy.duration = nil
        copy.tracks = [MediaTrack(trackID: 1, type: .text)]
        #expect(original.contentID == "a")
        #expect(original.duration == 10)
        #expect(original.tracks == nil)
        #expect(copy.contentID == "b")
        #expect(copy != original)
        var same = original
        same.contentID = "a"
        #expect(same == original)
        #expect(Set([original, same, copy]).count == 2)
    }

    @Test func durationNullMeansUnknown() throws {
        let media = try JSONPayloadDecoder().decode(
            MediaInformation.self,
            from: #"{"contentId":"live","streamType":"LIVE","duration":null}"#
        )
        #expect(media.duration == nil)
        #expect(try JSONPayloadEncoder().encode(media) == #"{"contentId":"live","streamType":"LIVE"}"#)
    }

    @Test func membersKeepTheirJSONNames() throws {
        var media = MediaInformation()
        media.contentURL = "https://example.com/a.m3u8"
        media.hlsSegmentFormat = .tsAAC
        media.hlsVideoSegmentFormat = .fmp4
        media.startAbsoluteTime = 1_700_000_000
        media.vmapAdsRequest = VASTAdsRequest(adTagURL: "https://example.com/vmap")
        media.entity = "e"
        media.atvEntity = "a"
        media.breaks = [AdBreak(id: "b", position: -1, isEmbedded: true, expanded: false)]
        media.breakClips = [
            AdBreakClip(id: "c", posterURL: "p", vastAdsRequest: VASTAdsRequest(adsResponse: "<VAST/>"))
        ]
        #expect(
            try JSONPayloadEncoder().encode(media)
                == #"{"contentUrl":"https://example.com/a.m3u8","breaks":[{"id":"b","position":-1.0,"isEmbedded":true,"expanded":false}],"breakClips":[{"id":"c","posterUrl":"p","vastAdsRequest":{"adsResponse":"<VAST/>"}}],"vmapAdsRequest":{"adTagUrl":"https://example.com/vmap"},"entity":"e","atvEntity":"a","startAbsoluteTime":1700000000.0,"hlsSegmentFormat":"ts_aac","hlsVideoSegmentFormat":"fmp4"}"#
        )
    }
}
