/// The escape sequences that show a picture with each graphics protocol, at the cursor.
enum PictureEncoding {
    // MARK: kitty

    /// Transmits and shows `picture` at the cursor as image `id` without moving the cursor
    /// (`a=T`, `C=1`), as 24-bit RGB, in chunks of 4,096 base64 characters; `q=2` keeps the
    /// terminal from answering.
    static func kitty(_ picture: Picture, id: UInt32) -> [UInt8] {
        var rgb: [UInt8] = []
        rgb.reserveCapacity(picture.width * picture.height * 3)
        for index in 0..<(picture.width * picture.height) {
            rgb.append(picture.pixels[index * 4])
            rgb.append(picture.pixels[index * 4 + 1])
            rgb.append(picture.pixels[index * 4 + 2])
        }
        let payload = Base64.encode(rgb)
        var bytes: [UInt8] = []
        var offset = 0
        var first = true
        repeat {
            let end = min(payload.count, offset + 4096)
            let more = end < payload.count ? 1 : 0
            let control =
                first ? "a=T,f=24,s=\(picture.width),v=\(picture.height),i=\(id),q=2,C=1,m=\(more)" : "m=\(more)"
            bytes += Array("\u{1B}_G\(control);".utf8)
            bytes += payload[offset..<end]
            bytes += Array("\u{1B}\\".utf8)
            offset = end
            first = false
        } while offset < payload.count
        return bytes
    }

    /// Deletes image `id` and frees its data.
    static func kittyDelete(id: UInt32) -> [UInt8] { Array("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\".utf8) }

    /// Deletes every image on the screen.
    static let kittyDeleteAll: [UInt8] = Array("\u{1B}_Ga=d,d=A,q=2\u{1B}\\".utf8)

    // MARK: iTerm2

    /// An inline image (OSC 1337 `File=`): the picture as a PNG, shown at its pixel size.
    static func iTerm2(_ picture: Picture) -> [UInt8] {
        let png = PNGWriter.encode(picture)
        var bytes = Array(
            "\u{1B}]1337;File=inline=1;size=\(png.count);width=\(picture.width)px;height=\(picture.height)px;preserveAspectRatio=0:"
                .utf8
        )
        bytes += Base64.encode(png)
        bytes.append(0x07)
        return bytes
    }

    // MARK: sixel

    /// A sixel image (DCS `q`): at most 255 colours chosen by popularity among the picture's
    /// colours reduced to 5-6-5 bits, each pixel drawn in the nearest; run-length coded.
    static func sixel(_ picture: Picture) -> [UInt8] {
        let width = picture.width
        let height = picture.height
        // Colour histogram on 5-6-5 keys.
        var counts = [Int](repeating: 0, count: 1 << 16)
        var keys = [Int](repeating: 0, count: width * height)
        for index in 0..<(width * height) {
            let red = Int(picture.pixels[index * 4])
            let green = Int(picture.pixels[index * 4 + 1])
            let blue = Int(picture.pixels[index * 4 + 2])
            let key = (red >> 3) << 11 | (green >> 2) << 5 | (blue >> 3)
            keys[index] = key
            counts[key] += 1
        }
        let palette = counts.indices.filter { counts[$0] > 0 }.sorted { counts[$0] > counts[$1] }.prefix(255)
        let colors = palette.map { key in (((key >> 11) & 31) << 3 | 4, ((key >> 5) & 63) << 2 | 2, (key & 31) << 3 | 4)
        }
        // Every key mapped to its nearest palette entry, once.
        var nearest = [Int](repeating: -1, count: 1 << 16)
        func entry(_ key: Int) -> Int {
            if nearest[key] >= 0 { return nearest[key] }
            let red = ((key >> 11) & 31) << 3 | 4
            let green = ((key >> 5) & 63) << 2 | 2
            let blue = (key & 31) << 3 | 4
            var best = 0
            var bestDistance = Int.max
            for (index, color) in colors.enumerated() {
                let distance =
                    (color.0 - red) * (color.0 - red) + (color.1 - green) * (color.1 - green) + (color.2 - blue)
                    * (color.2 - blue)
                if distance < bestDistance {
                    best = index
                    bestDistance = distance
                }
            }
            nearest[key] = best
            return best
        }
        var indexes = [Int](repeating: 0, count: width * height)
        for index in 0..<(width * height) { indexes[index] = entry(keys[index]) }

        // P2 = 1: pixels left at zero keep what is behind them; "1;1 sets square pixels and
        // the size.
        var text = "\u{1B}P0;1;0q\"1;1;\(width);\(height)"
        for (index, color) in colors.enumerated() {
            text += "#\(index);2;\(color.0 * 100 / 255);\(color.1 * 100 / 255);\(color.2 * 100 / 255)"
        }
        var bytes = Array(text.utf8)
        var band = 0
        while band < height {
            let rows = min(6, height - band)
            var used = [Bool](repeating: false, count: colors.count)
            for y in band..<(band + rows) {
                for x in 0..<width { used[indexes[y * width + x]] = true }
            }
            var firstColor = true
            for color in colors.indices where used[color] {
                if !firstColor { bytes.append(0x24) }  // "$": back to the band's start
                firstColor = false
                bytes += Array("#\(color)".utf8)
                var run = 0
                var previous: UInt8 = 0
                for x in 0..<width {
                    var bits: UInt8 = 0
                    for row in 0..<rows where indexes[(band + row) * width + x] == color { bits |= 1 << UInt8(row) }
                    let character = 0x3F + bits
                    if run > 0, character != previous {
                        appendRun(previous, count: run, to: &bytes)
                        run = 0
                    }
                    previous = character
                    run += 1
                }
                if run > 0 { appendRun(previous, count: run, to: &bytes) }
            }
            bytes.append(0x2D)  // "-": the next band
            band += 6
        }
        bytes += Array("\u{1B}\\".utf8)
        return bytes
    }

    private static func appendRun(_ character: UInt8, count: Int, to bytes: inout [UInt8]) {
        if count > 3 {
            bytes += Array("!\(count)".utf8)
            bytes.append(character)
        } else {
            for _ in 0..<count { bytes.append(character) }
        }
    }
}

/// Base64 (RFC 4648, with padding).
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 2 < bytes.count {
            let value = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
            output += [
                alphabet[value >> 18], alphabet[(value >> 12) & 63], alphabet[(value >> 6) & 63], alphabet[value & 63],
            ]
            index += 3
        }
        let rest = bytes.count - index
        if rest == 1 {
            let value = Int(bytes[index]) << 16
            output += [alphabet[value >> 18], alphabet[(value >> 12) & 63], 0x3D, 0x3D]
        } else if rest == 2 {
            let value = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8
            output += [alphabet[value >> 18], alphabet[(value >> 12) & 63], alphabet[(value >> 6) & 63], 0x3D]
        }
        return output
    }
}

/// The smallest PNG writer that serves: 8-bit RGB, filter 0, zlib stored blocks.
enum PNGWriter {
    static func encode(_ picture: Picture) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity((picture.width * 3 + 1) * picture.height)
        for y in 0..<picture.height {
            raw.append(0)
            for x in 0..<picture.width {
                let offset = (y * picture.width + x) * 4
                raw += picture.pixels[offset..<(offset + 3)]
            }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let end = min(raw.count, offset + 65_535)
            let length = end - offset
            zlib.append(end == raw.count ? 1 : 0)
            zlib += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            zlib += raw[offset..<end]
            offset = end
        } while offset < raw.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        zlib += bigEndian(b << 16 | a)
        var header = bigEndian(UInt32(picture.width)) + bigEndian(UInt32(picture.height))
        header += [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib)
            + chunk("IEND", [])
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc(body))
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    private static func crc(_ bytes: [UInt8]) -> UInt32 {
        var value: UInt32 = 0xFFFF_FFFF
        for byte in bytes { value = table[Int((value ^ UInt32(byte)) & 0xFF)] ^ (value >> 8) }
        return value ^ 0xFFFF_FFFF
    }
}
