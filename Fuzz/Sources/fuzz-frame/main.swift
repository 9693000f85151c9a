// Fuzzes CastFrameDecoder with the input as a received byte stream.
//
// Properties: the stream decodes to the same frames and the same error whether it arrives at
// once or in chunks of any size; every frame is non-empty and within the limit; re-framing
// the frames gives back the consumed bytes; the buffered count and the bytes needed for the
// next frame agree with what is left; an error is sticky; a decoder with a lower limit yields
// the same frames up to the first frame above its limit, where it fails.

@testable import CastCore
import FuzzSupport

/// What a decoder made of a stream.
private struct Outcome: Equatable {
    var frames: [[UInt8]] = []
    var error: FrameError?
    var errorOffset: Int?
    var buffered = 0
}

/// Decodes every complete frame currently buffered.
private func drain(_ decoder: inout CastFrameDecoder, into outcome: inout Outcome) -> Bool {
    while true {
        do {
            guard let frame = try decoder.nextFrame() else { return true }
            FuzzProperty.require(!frame.isEmpty, "a frame body is empty")
            FuzzProperty.require(frame.count <= decoder.maximumBodySize, "a frame is over the limit")
            outcome.frames.append(frame)
        } catch {
            outcome.error = error
            outcome.errorOffset = error.streamOffset
            // The decoder stays in error.
            do {
                _ = try decoder.nextFrame()
                FuzzProperty.fail("the decoder recovered after \(error)")
            } catch let again {
                FuzzProperty.require(again == error, "a second call threw \(again), not \(error)")
            }
            return false
        }
    }
}

private func decodeAtOnce(_ bytes: [UInt8], limit: Int = CastFrameDecoder.maximumBodySize) -> Outcome {
    var decoder = CastFrameDecoder(maximumBodySize: limit)
    var outcome = Outcome()
    decoder.append(bytes)
    if drain(&decoder, into: &outcome) {
        outcome.buffered = decoder.bufferedByteCount
    }
    return outcome
}

private func decodeInChunks(_ bytes: [UInt8]) -> Outcome {
    var decoder = CastFrameDecoder()
    var outcome = Outcome()
    var sizes = ChunkSizes(seed: bytes)
    var index = 0
    var useRawBuffer = false
    while index < bytes.count {
        let end = min(bytes.count, index + sizes.next(limit: bytes.count - index))
        if useRawBuffer {
            bytes[index..<end].withUnsafeBytes { decoder.append($0) }
        } else {
            decoder.append(bytes[index..<end])
        }
        useRawBuffer.toggle()
        index = end
        guard drain(&decoder, into: &outcome) else { return outcome }
        checkNeed(decoder)
    }
    outcome.buffered = decoder.bufferedByteCount
    return outcome
}

/// With no complete frame buffered, the decoder must know how many bytes it still needs.
private func checkNeed(_ decoder: CastFrameDecoder) {
    let buffered = decoder.bufferedByteCount
    if let needed = decoder.bytesNeededForNextFrame {
        FuzzProperty.require(buffered >= CastFrameDecoder.headerSize, "bytes needed reported without a header")
        FuzzProperty.require(needed > 0, "a complete frame is buffered but was not returned")
    } else {
        FuzzProperty.require(buffered < CastFrameDecoder.headerSize, "no bytes-needed figure with a full header")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrame(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.run(start, count) { bytes in
        let whole = decodeAtOnce(bytes)
        let chunked = decodeInChunks(bytes)
        FuzzProperty.require(whole == chunked, "chunked decoding differs from decoding at once")

        // Re-framing the frames gives back the bytes the decoder consumed.
        var reframed: [UInt8] = []
        for frame in whole.frames {
            do {
                reframed += try CastFrameEncoder.encode(frame)
            } catch {
                FuzzProperty.fail("a decoded frame does not encode: \(error)")
            }
        }
        FuzzProperty.require(bytes.starts(with: reframed), "re-framed frames differ from the input")
        if let offset = whole.errorOffset {
            FuzzProperty.require(offset == reframed.count, "error offset \(offset), expected \(reframed.count)")
        } else {
            FuzzProperty.require(whole.buffered == bytes.count - reframed.count, "buffered count is wrong")
        }

        // A lower limit changes nothing before the first frame above it.
        let limit = 1 + (bytes.first.map(Int.init) ?? 0) * 16
        let limited = decodeAtOnce(bytes, limit: limit)
        let kept = whole.frames.prefix { $0.count <= limit }
        FuzzProperty.require(limited.frames == Array(kept), "a lower limit changed the frames below it")
        if kept.count < whole.frames.count {
            FuzzProperty.require(limited.error?.code == .frameTooLarge, "no error at a frame above a lower limit")
        }
    }
}
