public import CastNetCore

/// The routes of an ``HTTPServer``: closures chosen by method and path.
///
/// A `HEAD` request is answered by the `GET` route of the same path, without the body.
/// A path with no route gets 404; a path whose routes are all for other methods gets 405.
public struct HTTPRoutes: Sendable {
    /// Produces the response to a request.
    public typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

    private struct Route: Sendable {
        var method: HTTPMethod
        var path: String
        var isPrefix: Bool
        var handler: Handler

        func matches(_ path: String) -> Bool {
            isPrefix ? path.hasPrefix(self.path) : path == self.path
        }
    }

    private var routes: [Route] = []

    /// Creates an empty set of routes.
    public init() {}

    /// Answers `method` requests for exactly `path` with `handler`.
    public mutating func add(_ method: HTTPMethod, _ path: String, _ handler: @escaping Handler) {
        routes.append(Route(method: method, path: path, isPrefix: false, handler: handler))
    }

    /// Answers `method` requests for every path starting with `prefix` with `handler`.
    /// Exact routes win over prefix routes; longer prefixes win over shorter ones.
    public mutating func addPrefix(_ method: HTTPMethod, _ prefix: String, _ handler: @escaping Handler) {
        routes.append(Route(method: method, path: prefix, isPrefix: true, handler: handler))
    }

    /// The response to `request`.
    public func response(to request: HTTPRequest) async -> HTTPResponse {
        let path = request.path
        let candidates = routes.filter { $0.matches(path) }
        guard !candidates.isEmpty else { return .status(.notFound) }
        let method = request.method == .head ? HTTPMethod.get : request.method
        let best =
            candidates
            .filter { $0.method == method || $0.method == request.method }
            .sorted { lhs, rhs in
                if lhs.isPrefix != rhs.isPrefix { return !lhs.isPrefix }
                return lhs.path.count > rhs.path.count
            }
            .first
        guard let best else {
            var response = HTTPResponse.status(.methodNotAllowed)
            let allowed = Set(
                candidates.map(\.method.rawValue) + (candidates.contains { $0.method == .get } ? ["HEAD"] : [])
            )
            response.headers.add(name: "Allow", value: allowed.sorted().joined(separator: ", "))
            return response
        }
        return await best.handler(request)
    }
}
