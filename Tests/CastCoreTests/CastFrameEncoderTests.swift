import CastCore
import Testing

@Suite struct CastFrameEncoderTests {
    @Test func prefixesTheBigEndianLength() throws {
        #expect(try CastFrameEncoder.encode([0xAB]) == [0x00, 0x00, 0x00, 0x01, 0xAB])
        let body = [UInt8](repeating: 0, count: 0x0102)
        #expect(try CastFrameEncoder.encode(body).prefix(4) == [0x00, 0x00, 0x01, 0x02])
        #expect(try CastFrameEncoder.encode(body[...]).count == 4 + 0x0102)
    }

    @Test func refusesAnEmptyBody() {
        let error = #expect(throws: FrameError.self) { try CastFrameEncoder.encode([UInt8]()) }
        #expect(error?.code == .emptyFrame)
    }

    @Test func refusesAnOversizedBody() {
        let error = #expect(throws: FrameError.self) {
            try CastFrameEncoder.encode([UInt8](repeating: 0, count: 65_537))
        }
        #expect(error?.code == .messageTooLarge)
        #expect(error?.length == 65_537)
        #expect(error?.limit == 65_536)
        #expect(error?.description == "message of 65537 bytes is over the limit of 65536")
        let small = #expect(throws: FrameError.self) { try CastFrameEncoder.encode([1, 2], maximumBodySize: 1) }
        #expect(small?.code == .messageTooLarge)
    }

    @Test func errorCodesHaveStableValues() {
        #expect(FrameError.Code.emptyFrame.rawValue == 1)
        #expect(FrameError.Code.frameTooLarge.rawValue == 2)
        #expect(FrameError.Code.messageTooLarge.rawValue == 3)
    }
}
