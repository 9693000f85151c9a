// Fuzzes the JPEG decoder of the widgets (catalog thumbnails, posters, artwork): the input is
// decoded as a JPEG, and through ImageDecoder, which tells PNG from JPEG.
//
// Properties: decoding never traps or runs away in memory or time (the decoder's pixel limit,
// applied to the size padded to whole MCUs, and its bound on scans hold); a decoded image has
// width × height × 4 bytes, within the pixel limit; the same bytes decode to the same image
// again; ImageDecoder gives the JPEG decoder's result for JPEG bytes.

import FuzzSupport

@testable import CastSenderUI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.run(start, count) { bytes in
        let decoder = JPEGDecoder(maximumPixels: 1 << 20, maximumScans: 32)
        let decoded = try? decoder.decode(bytes)
        if let image = decoded {
            FuzzProperty.require(
                image.width > 0 && image.height > 0 && image.pixels.count == image.width * image.height * 4,
                "a decoded image has the wrong size: \(image.width)×\(image.height), \(image.pixels.count) bytes"
            )
            FuzzProperty.require(image.width * image.height <= 1 << 20, "the pixel limit was exceeded")
            FuzzProperty.require((try? decoder.decode(bytes)) == image, "decoding is not deterministic")
        }
        if JPEGDecoder.isJPEG(bytes) {
            let viaImageDecoder = try? ImageDecoder(maximumPixels: 1 << 20).decode(bytes)
            // ImageDecoder allows the default number of scans: it may decode more.
            if let decoded { FuzzProperty.require(viaImageDecoder == decoded, "ImageDecoder disagrees") }
        }
    }
}
