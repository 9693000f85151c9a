import Testing

@testable import CastCore

@Suite struct CastFrameDecoderTests {
    static let body = CastMessageTests.ping

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

    @Test func twoFramesSplitAtEveryPosition() throws {
        let first = try CastFrameEncoder.encode(Self.body)
        let second = try CastFrameEncoder.encode([0xAA, 0xBB])
        let stream = first + second
        for split in 0...stream.count {
            var decoder = CastFrameDecoder()
            var frames: [[UInt8]] = []
            for chunk in [stream[..<split], stream[split...]] {
                decoder.append(chunk)
                while let frame = try decoder.nextFrame() {
                    frames.append(frame)
                }
            }
            #expect(frames == [Self.body, [0xAA, 0xBB]], "split at \(split)")
            #expect(decoder.bufferedByteCount == 0)
        }
    }

    @Test func manyFramesInOneChunk() throws {
        var stream: [UInt8] = []
        var bodies: [[UInt8]] = []
        for index in 0..<50 {
            let body = [UInt8](repeating: UInt8(index), count: index + 1)
            bodies.append(body)
            stream += try CastFrameEncoder.encode(body)
        }
        var decoder = CastFrameDecoder()
        decoder.append(stream)
        var frames: [[UInt8]] = []
        while let frame = try decoder.nextFrame() {
            frames.append(frame)
        }
        #expect(frames == bodies)
    }

    @Test func partialFrameReturnsNilAndReportsWhatIsMissing() throws {
        let frame = try CastFrameEncoder.encode(Self.body)
        var decoder = CastFrameDecoder()
        decoder.append(frame[..<2])
        #expect(try decoder.nextFrame() == nil)
        #expect(decoder.bytesNeededForNextFrame == nil)
        decoder.append(frame[2..<10])
        #expect(try decoder.nextFrame() == nil)
        #expect(decoder.bytesNeededForNextFrame == frame.count - 10)
        #expect(decoder.bufferedByteCount == 10)
        decoder.append(frame[10...])
        #expect(decoder.bytesNeededForNextFrame == 0)
        #expect(try decoder.nextFrame() == Self.body)
    }

    /// Between frames the decoder holds no storage: the body it filled is the frame it
    /// returned, and bytes read past a frame are freed once they are used.
    @Test func holdsNoStorageBetweenFrames() throws {
        let first = try CastFrameEncoder.encode(Self.body)
        let second = try CastFrameEncoder.encode([1, 2, 3])
        var decoder = CastFrameDecoder()
        decoder.append(first[..<10])
        #expect(decoder.heldStorageBytes >= 6)
        // The rest of the first frame, the second and the header of a third in one chunk.
        decoder.append(first[10...] + second + [0, 0])
        #expect(decoder.heldStorageBytes >= Self.body.count)
        #expect(try decoder.nextFrame() == Self.body)
        #expect(try decoder.nextFrame() == [1, 2, 3])
        #expect(decoder.bufferedByteCount == 2)
        #expect(decoder.heldStorageBytes == 0)
        decoder.append([0, 1, 9])
        #expect(try decoder.nextFrame() == [9])
        #expect(decoder.bufferedByteCount == 0)
        #expect(decoder.heldStorageBytes == 0)
    }

    @Test func emptyFrameIsRejectedWithItsStreamOffset() throws {
        var decoder = CastFrameDecoder()
        let valid = try CastFrameEncoder.encode([0x01, 0x02])
        decoder.append(valid + [0, 0, 0, 0])
        #expect(try decoder.nextFrame() == [0x01, 0x02])
        let error = #expect(throws: FrameError.self) { try decoder.nextFrame() }
        #expect(error?.code == .emptyFrame)
        #expect(error?.streamOffset == valid.count)
        #expect(error?.description == "frame at stream offset 6 declares an empty body")
    }

    @Test func oversizedFrameIsRejectedFromItsHeaderAlone() throws {
        var decoder = CastFrameDecoder()
        // Two frames earlier in the stream, compacted away, still count in the offset.
        let valid = try CastFrameEncoder.encode(Self.body)
        decoder.append(valid)
        _ = try decoder.nextFrame()
        decoder.append(valid)
        _ = try decoder.nextFrame()
        // 65,537 = 0x00010001. Only the header arrives: no body is awaited or allocated.
        decoder.append([0x00, 0x01, 0x00, 0x01])
        let error = #expect(throws: FrameError.self) { try decoder.nextFrame() }
        #expect(error?.code == .frameTooLarge)
        #expect(error?.length == 65_537)
        #expect(error?.limit == 65_536)
        #expect(error?.streamOffset == 2 * valid.count)
        #expect(decoder.bufferedByteCount == 4)
        // The decoder stays in error.
        #expect((#expect(throws: FrameError.self) { try decoder.nextFrame() })?.code == .frameTooLarge)
    }

    @Test func largestDeclaredLengthIsRejected() {
        var decoder = CastFrameDecoder()
        decoder.append([0xFF, 0xFF, 0xFF, 0xFF])
        let error = #expect(throws: FrameError.self) { try decoder.nextFrame() }
        #expect(error?.length == 4_294_967_295)
    }

    @Test func maximumBodyIsAccepted() throws {
        let body = [UInt8](repeating: 0x5A, count: 65_536)
        let frame = try CastFrameEncoder.encode(body)
        #expect(frame.prefix(4) == [0x00, 0x01, 0x00, 0x00])
        var decoder = CastFrameDecoder()
        decoder.append(frame)
        #expect(try decoder.nextFrame() == body)
    }

    @Test func customLimit() throws {
        var decoder = CastFrameDecoder(maximumBodySize: 3)
        decoder.append([0, 0, 0, 3, 1, 2, 3, 0, 0, 0, 4])
        #expect(try decoder.nextFrame() == [1, 2, 3])
        #expect((#expect(throws: FrameError.self) { try decoder.nextFrame() })?.code == .frameTooLarge)
    }

    @Test func dripFeedsAHundredFramesByteAtATime() throws {
        var stream: [UInt8] = []
        var messages: [CastMessage] = []
        for index in 0..<100 {
            let message = CastMessage(
                sourceID: "sender-\(index)",
                destinationID: "receiver-0",
                namespace: .receiver,
                text: #"{"type":"GET_STATUS","requestId":\#(index + 1)}"#
            )
            messages.append(message)
            stream += try CastFrameEncoder.encode(message.serializedBytes())
        }
        var decoder = CastFrameDecoder()
        var decoded: [CastMessage] = []
        for byte in stream {
            decoder.append(CollectionOfOne(byte))
            while let body = try decoder.nextFrame() {
                decoded.append(try CastMessage(serializedBytes: body))
            }
            // Never more than one frame is buffered.
            #expect(decoder.bufferedByteCount <= 4 + 65_536)
        }
        #expect(decoded == messages)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func appendsFromRawMemory() throws {
        let frame = try CastFrameEncoder.encode([7, 8, 9])
        var decoder = CastFrameDecoder()
        frame.withUnsafeBytes { decoder.append($0) }
        #expect(try decoder.nextFrame() == [7, 8, 9])
    }
}
