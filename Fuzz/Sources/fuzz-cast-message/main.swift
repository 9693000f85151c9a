// Fuzzes CastMessage decoding with the input as a frame body.
//
// Properties: decoding from an array, an array slice and a non-contiguous collection agree
// (value or error, offset and field); a decoded message re-encodes to bytes that decode to an
// equal message and re-encode identically; a decoded message frames and unframes unchanged.

@testable import CastCore
import FuzzCastSupport
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCastMessage(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.run(start, count) { bytes in
        // The array-slice initializer is a separate fast path from the generic one.
        let shifted = [0xa5] + bytes
        let fromSlice = Result { () throws(ProtobufError) in try CastMessage(serializedBytes: shifted[1...]) }
        guard let message = CastMessage.checkRoundTrip(bytes) else {
            if case .success(let value) = fromSlice {
                FuzzProperty.fail("only the slice initializer decoded the input: \(value)")
            }
            return
        }
        FuzzProperty.require((try? fromSlice.get()) == message, "the slice initializer decoded a different message")

        let body = message.serializedBytes()
        guard body.count <= CastFrameDecoder.maximumBodySize else { return }
        do {
            var decoder = CastFrameDecoder()
            decoder.append(try CastFrameEncoder.encode(body))
            let frame = try decoder.nextFrame()
            FuzzProperty.require(frame == body, "a framed message does not unframe to its body")
            FuzzProperty.require(decoder.bufferedByteCount == 0, "bytes left after one frame")
        } catch {
            FuzzProperty.fail("a message body of \(body.count) bytes does not frame: \(error)")
        }
    }
}
