/// The two checksums a PNG file needs: CRC-32 over each chunk, Adler-32 over the zlib data.
enum Checksums {
    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }

    /// The CRC-32 (ISO 3309, reflected polynomial 0xEDB88320) of `bytes`.
    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// The Adler-32 checksum (RFC 1950) of `bytes`.
    static func adler32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        let modulus: UInt32 = 65_521
        var a: UInt32 = 1
        var b: UInt32 = 0
        var pending = 0
        for byte in bytes {
            a += UInt32(byte)
            b += a
            pending += 1
            // 5552 is the largest run that cannot overflow 32 bits before reducing.
            if pending == 5552 {
                a %= modulus
                b %= modulus
                pending = 0
            }
        }
        return (b % modulus) << 16 | (a % modulus)
    }
}
