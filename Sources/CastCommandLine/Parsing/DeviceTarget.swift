/// How the user named a device.
package enum DeviceTarget: Hashable, Sendable, CustomStringConvertible {
    /// An address with the Cast port (8009 unless given).
    case address(host: String, port: Int)
    /// A friendly name or its case-insensitive prefix, found by discovery.
    case name(String)

    /// Reads `HOST`, `HOST:PORT`, `[V6]:PORT`, an IPv6 literal or a friendly name.
    package init(_ text: String) {
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            let port = rest.hasPrefix(":") ? Int(rest.dropFirst()) : nil
            self = .address(host: host, port: port ?? 8009)
            return
        }
        if Self.isIPv4(text) || text.split(separator: ":", omittingEmptySubsequences: false).count > 2 {
            self = .address(host: text, port: 8009)
            return
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2, let port = Int(parts[1]), (1...65_535).contains(port),
            Self.isIPv4(String(parts[0])) || parts[0] == "localhost" || parts[0].contains(".")
        {
            self = .address(host: String(parts[0]), port: port)
            return
        }
        if text == "localhost" {
            self = .address(host: "127.0.0.1", port: 8009)
            return
        }
        self = .name(text)
    }

    package var description: String {
        switch self {
        case .address(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .name(let name): name
        }
    }

    static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in Int(part).map { (0...255).contains($0) } ?? false }
    }
}
