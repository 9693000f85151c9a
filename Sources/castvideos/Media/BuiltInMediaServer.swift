import CastNet
import CastNetCore

/// Serves ``BuiltInMedia`` over HTTP on loopback, so the built-in catalog's videos and
/// captions are files the built-in device fetches and reads, as a Chromecast reads a CDN's.
///
/// It listens on `127.0.0.1`, on the port of the previous run when that is free (the saved
/// session's media URL then still names it), and answers only the catalog's paths.
final class BuiltInMediaServer: Sendable {
    private let server: HTTPServer
    /// The bound port.
    let port: Int

    /// The base the catalog's media and track URLs are resolved against, ending in `/`.
    var baseURL: String { "http://127.0.0.1:\(port)/" }

    /// Starts serving the files of `catalog`.
    /// - Parameters:
    ///   - preferredPort: tried first; any free port when it is taken or `nil`.
    ///   - requestTimeout: how long a connection may take to send a request; by default
    ///     ``HTTPServerConfiguration``'s. Tests lengthen it: a run slowed down by a sanitizer can
    ///     hold a healthy client up for longer, and the server would answer 408.
    /// - Throws: what binding threw.
    init(
        catalog: Catalog,
        preferredPort: Int?,
        requestTimeout: Duration = HTTPServerConfiguration().requestTimeout
    ) throws {
        let files = BuiltInMedia.files(for: catalog)
        var routes = HTTPRoutes()
        for (path, file) in files {
            let response = HTTPResponse.ok(.bytes(file.bytes), contentType: file.contentType)
            routes.add(.get, path) { _ in response }
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
