/// Decodes the image formats the widgets show, PNG and JPEG, telling them apart by their
/// signatures: what a front end calls on bytes from the image cache.
public struct ImageDecoder: Sendable {
    /// The most pixels an image may have.
    public var maximumPixels: Int

    /// Creates a decoder. The default limit, 16 megapixels, is the PNG and JPEG decoders'.
    public init(maximumPixels: Int = 16 << 20) {
        self.maximumPixels = maximumPixels
    }

    /// Decodes a PNG or JPEG.
    /// - Throws: ``ImageDecodingError``; ``ImageDecodingError/Kind/unsupported`` for bytes
    ///   that are neither.
    public func decode(_ bytes: [UInt8]) throws(ImageDecodingError) -> RGBAImage {
        if PNGDecoder.isPNG(bytes) { return try PNGDecoder(maximumPixels: maximumPixels).decode(bytes) }
        if JPEGDecoder.isJPEG(bytes) { return try JPEGDecoder(maximumPixels: maximumPixels).decode(bytes) }
        throw ImageDecodingError(.unsupported, "the image is neither a PNG nor a JPEG")
    }
}
