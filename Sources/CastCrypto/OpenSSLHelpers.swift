internal import COpenSSL

/// Small helpers shared by the crypto wrappers.
enum OpenSSLHelpers {
    /// Runs an OpenSSL `i2d_*` encoder twice: once for the length, once to fill the bytes.
    static func encodeDER(
        _ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
    ) -> [UInt8]? {
        let length = encode(nil)
        guard length > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return encode(&cursor)
        }
        return written == length ? bytes : nil
    }

    /// Runs `body` with a read-only memory BIO over `bytes`.
    static func withReadBIO<Result>(
        _ bytes: [UInt8],
        _ body: (OpaquePointer) throws(OpenSSLError) -> Result
    ) throws(OpenSSLError) -> Result {
        guard bytes.count <= Int(Int32.max) else {
            throw OpenSSLError(.encodingFailed, context: "input of \(bytes.count) bytes is too large")
        }
        let result: Swift.Result<Result, OpenSSLError> = bytes.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else {
                return .failure(.drainingQueue(.encodingFailed, context: "allocating a memory BIO"))
            }
            defer { BIO_free(bio) }
            do throws(OpenSSLError) {
                return .success(try body(bio))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Runs `body` with a writable memory BIO and returns what it wrote.
    static func collectingBIO(
        context: String,
        _ body: (OpaquePointer) -> Bool
    ) throws(OpenSSLError) -> [UInt8] {
        guard let bio = BIO_new(BIO_s_mem()) else {
            throw .drainingQueue(.encodingFailed, context: "allocating a memory BIO for \(context)")
        }
        defer { BIO_free(bio) }
        guard body(bio) else { throw .drainingQueue(.encodingFailed, context: context) }
        let pending = Int(cast_BIO_pending(bio))
        var bytes = [UInt8](repeating: 0, count: pending)
        let read = bytes.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32(pending)) }
        guard read == Int32(pending) else { throw .drainingQueue(.encodingFailed, context: context) }
        return bytes
    }

    /// Decodes an ASN.1 string (UTF8String, PrintableString, …) as UTF-8 text.
    static func string(from asn1: UnsafePointer<ASN1_STRING>?) -> String? {
        guard let asn1 else { return nil }
        var output: UnsafeMutablePointer<UInt8>?
        let length = ASN1_STRING_to_UTF8(&output, asn1)
        guard length >= 0, let output else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        defer { cast_OPENSSL_free(output) }
        return String(decoding: UnsafeBufferPointer(start: output, count: Int(length)), as: UTF8.self)
    }

    /// The text form of an object identifier, always numeric (`1.3.6.1.4.1.11129.2.5.2`).
    static func oidString(_ object: OpaquePointer?) -> String? {
        guard let object else { return nil }
        var buffer = [CChar](repeating: 0, count: 128)
        let length = OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1)
        guard length > 0, Int(length) < buffer.count else { return nil }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
