import CastNet
import CastNetCore
import Glibc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Serves local files (and converted subtitles) over HTTP on the address the device reaches
/// us at, with byte ranges, for as long as `cast play` runs.
///
/// Each entry is reachable only under a random 128-bit token in its path, files are opened
/// once (`O_NOFOLLOW`) and served from that descriptor, only the device's address and this
/// host's own addresses may connect, and only text tracks carry a CORS header (the request's
/// `Origin` when it is an `https` origin). See docs/security.md.
final class LocalMediaServer: Sendable {
    private let server: HTTPServer
    private let files: [HTTPServedFile]
    /// The base URL, such as `http://192.168.1.20:41234`.
    let baseURL: String
    /// The URL path of each entry, in the order given (such as `/media/<token>/movie.mp4`).
    let paths: [String]

    /// What an entry serves.
    enum Content: Sendable {
        /// A file, opened when the server starts.
        case file(path: String)
        /// A prepared body.
        case bytes([UInt8])
    }

    /// One served item.
    struct Entry: Sendable {
        /// The last path component of the URL (percent-escaped by the caller).
        var name: String
        var content: Content
        var contentType: String
        /// Whether receivers read it from script (text tracks), so it needs CORS.
        var crossOrigin = false
    }

    /// Starts serving `entries` on `address`, to connections from `device` or this host.
    /// - Throws: ``HTTPServedFile/OpenError`` when a file cannot be opened, a CastNet error
    ///   when the address cannot be bound.
    init(
        address: String,
        device: String,
        entries: [Entry],
        configuration: HTTPServerConfiguration = HTTPServerConfiguration()
    ) throws {
        var routes = HTTPRoutes()
        var files: [HTTPServedFile] = []
        var paths: [String] = []
        for entry in entries {
            let body: HTTPResponse.Body
            switch entry.content {
            case .file(let path):
                let file = try HTTPServedFile(path: path)
                files.append(file)
                body = .openFile(file)
            case .bytes(let bytes):
                body = .bytes(bytes)
            }
            let path = "/media/\(Self.token())/\(entry.name)"
            let handler: HTTPRoutes.Handler = { request in
                var response = HTTPResponse.ok(body, contentType: entry.contentType)
                if entry.crossOrigin {
                    response.headers.add(name: "Vary", value: "Origin")
                    if let origin = Self.allowedOrigin(request.headers["Origin"]) {
                        response.headers.add(name: "Access-Control-Allow-Origin", value: origin)
                    }
                }
                return response
            }
            routes.add(.get, path, handler)
            routes.add(.head, path, handler)
            paths.append(path)
        }
        let allowed = Set([Self.normalized(device), Self.normalized(address), "127.0.0.1", "::1"])
        server = try HTTPServer(
            address: SocketAddress(ipAddress: address, port: 0),
            routes: routes,
            configuration: configuration,
            admit: { peer in allowed.contains(Self.normalized(peer.ipAddress)) }
        )
        self.files = files
        self.paths = paths
        let host = address.contains(":") ? "[\(address)]" : address
        baseURL = "http://\(host):\(server.localAddress.port)"
    }

    /// Stops serving: no new connections, and requests on open ones get 404.
    func stop() {
        server.close()
        for file in files { file.close() }
    }

    /// 128 random bits from the system generator, as 32 hexadecimal digits.
    static func token() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let text = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }.joined()
    }

    /// The `Access-Control-Allow-Origin` value for a request's `Origin`: receivers are
    /// served over HTTPS, so only an `https://host[:port]` origin is echoed.
    static func allowedOrigin(_ origin: String?) -> String? {
        guard let origin, origin.hasPrefix("https://"), origin.count > 8, origin.count <= 256 else { return nil }
        let rest = origin.dropFirst(8)
        let valid = rest.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || ".-:[]".unicodeScalars.contains(scalar))
        }
        return valid ? origin : nil
    }

    /// An address compared without an IPv6 zone and with IPv4-mapped IPv6 as IPv4.
    static func normalized(_ address: String) -> String {
        var text = address.lowercased()
        if let percent = text.firstIndex(of: "%") { text = String(text[..<percent]) }
        if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if text.hasPrefix("::ffff:"), text.dropFirst(7).contains(".") { text = String(text.dropFirst(7)) }
        return text
    }

    /// The local address this host uses to reach `host` (a UDP connect sends nothing).
    static func localAddress(toward host: String) -> String? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST
        var info: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, "9", &hints, &info) == 0, let first = info else { return nil }
        defer { freeaddrinfo(info) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else { return nil }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let status = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST)
            }
        }
        guard status == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
