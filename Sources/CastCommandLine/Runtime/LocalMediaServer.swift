import CastNet
import Foundation

/// Serves local files (and converted subtitles) over HTTP on the address the device reaches
/// us at, with byte ranges, for as long as `cast play` runs.
final class LocalMediaServer: Sendable {
    private let server: HTTPServer
    /// The base URL, such as `http://192.168.1.20:41234`.
    let baseURL: String

    /// A file or a prepared body to serve at a path.
    enum Entry: Sendable {
        case file(path: String, contentType: String)
        case bytes([UInt8], contentType: String)
    }

    /// Starts serving `entries` (keyed by URL path, such as `/media/0/movie.mp4`).
    /// - Throws: a CastNet error when the address cannot be bound.
    init(address: String, entries: [String: Entry]) throws {
        var routes = HTTPRoutes()
        for (path, entry) in entries {
            let handler: HTTPRoutes.Handler = { _ in
                var response: HTTPResponse
                switch entry {
                case .file(let file, let type):
                    response = .ok(.file(path: file), contentType: type)
                case .bytes(let bytes, let type):
                    response = .ok(.bytes(bytes), contentType: type)
                }
                // Receivers fetch media and subtitles from another origin.
                response.headers.add(name: "Access-Control-Allow-Origin", value: "*")
                return response
            }
            routes.add(.get, path, handler)
            routes.add(.head, path, handler)
        }
        server = try HTTPServer(address: SocketAddress(ipAddress: address, port: 0), routes: routes)
        let host = address.contains(":") ? "[\(address)]" : address
        baseURL = "http://\(host):\(server.localAddress.port)"
    }

    /// Stops serving.
    func stop() { server.close() }

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
