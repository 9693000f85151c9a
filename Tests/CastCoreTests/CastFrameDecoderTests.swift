import CastCore
import Testing

@Suite struct CastFrameDecoderTests {
    @Test func decodesFrameSplitAtEveryByte() throws {
        let frame = try CastFrameEncoder.encode([1, 2, 3])
        var decoder = CastFrameDecoder()
        for byte in frame.dropLast() {
            decoder.append([byte])
            #expect(try decoder.nextFrame() == nil)
        }
        decoder.append([frame.last!])
        #expect(try decoder.nextFrame() == [1, 2, 3])
        #expect(try decoder.nextFrame() == nil)
    }
}
