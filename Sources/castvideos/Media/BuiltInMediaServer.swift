import CastNet
import CastNetCore
import Foundation

/// Serves the built-in catalog's media (``BuiltInMediaLibrary``) over HTTP on loopback: the
/// pictures the app shows through its image cache, and the videos, ad clips, live stream and
/// captions the built-in device fetches and reads, as a Chromecast reads a CDN's (and its TV
/// screen page plays).
///
/// It listens on `127.0.0.1`, on the port of the previous run when that is free (the saved
/// session's media URL then still names it), and answers only the catalog's paths.
final class BuiltInMediaServer: Sendable {
    private let server: HTTPServer
    /// The bound port.
    let port: Int
    /// What it serves.
    let library: BuiltInMediaLibrary

    /// The base the catalog's media and track URLs are resolved against, ending in `/`.
    var baseURL: String { "http://127.0.0.1:\(port)/" }

    /// Starts serving the files of `catalog`.
    /// - Parameters:
    ///   - cacheDirectory: where made pictures and videos are kept (``BuiltInMediaLibrary``);
    ///     `nil` keeps pictures in memory and serves videos of headers only.
    ///   - preferredPort: tried first; any free port when it is taken or `nil`.
    ///   - requestTimeout: how long a connection may take to send a request; by default
    ///     ``HTTPServerConfiguration``'s. Tests lengthen it: a run slowed down by a sanitizer can
    ///     hold a healthy client up for longer, and the server would answer 408.
    /// - Throws: what binding threw.
    init(
        catalog: Catalog,
        cacheDirectory: URL? = nil,
        preferredPort: Int?,
        requestTimeout: Duration = HTTPServerConfiguration().requestTimeout
    ) throws {
        let library = BuiltInMediaLibrary(catalog: catalog, directory: cacheDirectory)
        self.library = library
        var routes = HTTPRoutes()
        for path in library.paths {
            routes.add(.get, path) { _ in library.response(for: path) }
        }
        var configuration = HTTPServerConfiguration()
        configuration.serverName = "castvideos"
        configuration.requestTimeout = requestTimeout
        var bound: HTTPServer?
        if let preferredPort, (1...65_535).contains(preferredPort) {
            bound = try? HTTPServer(
                address: .loopbackIPv4(port: preferredPort),
                routes: routes,
                configuration: configuration
            )
        }
        let server = try bound ?? HTTPServer(address: .loopbackIPv4(), routes: routes, configuration: configuration)
        self.server = server
        port = server.localAddress.port
    }

    /// Stops serving; returns once the port is free.
    func stop() async {
        await server.closeAndWait()
    }
}
