/// One HTTP/1.1 request received by the setup server.
struct HTTPRequest: Sendable, Equatable {
    /// `GET`, `POST`…
    var method: String
    /// The request target as sent, such as `/setup/eureka_info?params=name`.
    var target: String
    /// Header fields in arrival order; names as sent.
    var headers: [(name: String, value: String)]
    /// The body (empty without `Content-Length`).
    var body: [UInt8]

    /// The path part of the target, without the query.
    var path: String {
        String(target.prefix { $0 != "?" })
    }

    /// The decoded query parameters; a name without `=` has an empty value.
    var queryItems: [String: String] {
        guard let mark = target.firstIndex(of: "?") else { return [:] }
        var items: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncodingLeniently
            items[name] = parts.count > 1 ? String(parts[1]).removingPercentEncodingLeniently : ""
        }
        return items
    }

    /// The first value of the header `name` (case-insensitive).
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.body == rhs.body
            && lhs.headers.map(\.name) == rhs.headers.map(\.name)
            && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }
}

extension String {
    /// `%XX` escapes and `+` decoded; malformed escapes are kept as they are.
    fileprivate var removingPercentEncodingLeniently: String {
        var bytes: [UInt8] = []
        let source = Array(utf8)
        var index = 0
        while index < source.count {
            let byte = source[index]
            if byte == UInt8(ascii: "%"), index + 2 < source.count,
                let value = UInt8(String(decoding: source[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
