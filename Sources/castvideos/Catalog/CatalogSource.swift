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
    /// - Throws: ``CatalogError``.
    func load() async throws(CatalogError) -> Catalog {
        try Catalog(json: try await bytes())
    }

    private func bytes() async throws(CatalogError) -> [UInt8] {
        switch self {
        case .builtIn:
            return Array(BuiltInCatalog.json.utf8)
        case .file(let path):
            guard let handle = FileHandle(forReadingAtPath: path) else {
                let reason = FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"
                throw .unreadable(path, reason)
            }
            defer { try? handle.close() }
            do {
                let data = try handle.read(upToCount: Catalog.maximumSize + 1) ?? Data()
                guard data.count <= Catalog.maximumSize else {
                    throw CatalogError.tooLarge(path, limit: Catalog.maximumSize)
                }
                return Array(data)
            } catch let error as CatalogError {
                throw error
            } catch {
                throw .unreadable(path, "\(error.localizedDescription)")
            }
        case .url(let url):
            var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 15)
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            do {
                let (data, response) = try await URLSession.shared.data(for: request)
                if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                    throw CatalogError.network(url.absoluteString, "HTTP status \(http.statusCode)")
                }
                guard data.count <= Catalog.maximumSize else {
                    throw CatalogError.tooLarge(url.absoluteString, limit: Catalog.maximumSize)
                }
                return Array(data)
            } catch let error as CatalogError {
                throw error
            } catch {
                throw .network(url.absoluteString, error.localizedDescription)
            }
        }
    }
}
