import CastNet
import CastNetCore
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where the catalog comes from: the built-in one, a file, or an HTTP(S) URL.
enum CatalogSource: Hashable, Sendable, CustomStringConvertible {
    case builtIn
    case file(String)
    case url(URL)

    /// Reads `--catalog`'s argument: `http://` and `https://` are URLs, `file://` and
    /// anything else a file path.
    init(argument: String) {
        if let url = URL(string: argument), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        {
            self = .url(url)
        } else if argument.hasPrefix("file://"), let url = URL(string: argument) {
            self = .file(url.path)
        } else {
            self = .file(argument)
        }
    }

    var description: String {
        switch self {
        case .builtIn: BuiltInCatalog.source
        case .file(let path): path
        case .url(let url): url.absoluteString
        }
    }

    /// Loads and decodes the catalog.
    /// - Parameters:
    ///   - timeout: the limit for a download, from connecting to the last byte.
    ///   - builtInMediaBase: where the built-in catalog's videos and captions are served
    ///     (``BuiltInMediaServer/baseURL``); `nil` leaves its reserved host.
    /// - Throws: ``CatalogError``.
    func load(timeout: Duration = .seconds(15), builtInMediaBase: String? = nil) async throws(CatalogError) -> Catalog {
        try Catalog(json: try await bytes(timeout: timeout, builtInMediaBase: builtInMediaBase))
    }

    private func bytes(timeout: Duration, builtInMediaBase: String?) async throws(CatalogError) -> [UInt8] {
        switch self {
        case .builtIn:
            return Array(BuiltInCatalog.json(mediaBase: builtInMediaBase).utf8)
        case .file(let path):
            // Opened non-blocking and checked to be a regular file: a FIFO is refused at once.
            do {
                return try LocalFile.read(path: path, limit: Catalog.maximumSize)
            } catch {
                if case .tooLarge = error.kind { throw .tooLarge(path, limit: Catalog.maximumSize) }
                throw .unreadable(path, error.reason)
            }
        case .url(let url):
            let source = url.absoluteString
            if url.scheme?.lowercased() == "http" {
                return try await Self.plainHTTP(source, timeout: timeout)
            }
            var request = URLRequest(
                url: url,
                cachePolicy: .reloadIgnoringLocalCacheData,
                timeoutInterval: Double(timeout.components.seconds)
            )
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            switch await CappedDownload.fetch(request, limit: Catalog.maximumSize) {
            case .body(let bytes):
                return bytes
            case .status(let code):
                throw .network(source, "HTTP status \(code)")
            case .declaredTooLarge(let length):
                throw .tooLarge(source, limit: Catalog.maximumSize, declared: length)
            case .tooLarge:
                throw .tooLarge(source, limit: Catalog.maximumSize)
            case .failed(let reason):
                throw .network(source, reason)
            }
        }
    }

    /// An `http://` catalog through CastNet's client, which reads the socket only as the
    /// parser consumes it: a `Content-Length` over the cap fails before the body, and a body
    /// without one fails as soon as the bytes read pass the cap; the connection then closes.
    private static func plainHTTP(_ source: String, timeout: Duration) async throws(CatalogError) -> [UInt8] {
        var client = HTTPClient()
        client.maximumBodySize = Catalog.maximumSize
        client.timeout = timeout
        do {
            let response = try await client.get(source, headers: ["Accept": "application/json"])
            guard (200..<300).contains(response.status.code) else {
                throw CatalogError.network(source, "HTTP status \(response.status.code)")
            }
            return response.body
        } catch let error as CatalogError {
            throw error
        } catch let error as HTTPParseError where error.code == .bodyTooLarge {
            // "body of N bytes, limit L" when the declared length was refused.
            if error.detail.hasPrefix("body of "),
                let declared = Int64(error.detail.dropFirst(8).prefix { $0.isNumber })
            {
                throw .tooLarge(source, limit: Catalog.maximumSize, declared: declared)
            }
            throw .tooLarge(source, limit: Catalog.maximumSize)
        } catch {
            throw .network(source, "\(error)")
        }
    }
}
