// Fuzzes the PNG decoder of the widgets (artwork, device icons) and its inflate: the input is
// decoded as a PNG, and as a zlib stream on its own.
//
// Properties: decoding never traps or runs away in memory (the decoder's pixel limit and the
// inflate output bound hold); a decoded image has width × height × 4 bytes and the same bytes
// decode to the same image again; inflating stays within the bound it is given.

import FuzzSupport

@testable import CastSenderUI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.run(start, count) { bytes in
        let decoder = PNGDecoder(maximumPixels: 1 << 20)
        if let image = try? decoder.decode(bytes) {
            FuzzProperty.require(
                image.width > 0 && image.height > 0 && image.pixels.count == image.width * image.height * 4,
                "a decoded image has the wrong size: \(image.width)×\(image.height), \(image.pixels.count) bytes"
            )
            FuzzProperty.require(image.width * image.height <= 1 << 20, "the pixel limit was exceeded")
            FuzzProperty.require((try? decoder.decode(bytes)) == image, "decoding is not deterministic")
        }
        let bound = 1 << 16
        if let inflated = try? Inflate.zlib(bytes, maximumOutput: bound) {
            FuzzProperty.require(inflated.count <= bound, "inflate passed its output bound: \(inflated.count)")
        }
    }
}
