import CastNet
import CastNetCore
public import Foundation

/// Fetches images with CastNet's HTTP/1.1 client, following up to three redirects.
///
/// HTTPS certificates are checked against the system's trust roots when they can be read
/// (`/etc/ssl/certs/ca-certificates.crt` and the usual alternatives); when none can be
/// read, HTTPS fetches fail rather than trust any certificate.
public struct HTTPImageFetcher: ImageFetcher {
    /// The largest image accepted, in bytes. Defaults to 8 MiB.
    public var maximumImageSize: Int
    /// The time limit of one request. Defaults to 15 s.
    public var timeout: Duration
    private let roots: TLSClientConfiguration.Verification?

    /// Files where systems keep their trust roots, in the order they are tried.
    public static let trustRootFiles = [
        "/etc/ssl/certs/ca-certificates.crt",
        "/etc/pki/tls/certs/ca-bundle.crt",
        "/etc/ssl/cert.pem",
    ]

    /// Creates a fetcher.
    public init(maximumImageSize: Int = 8 << 20, timeout: Duration = .seconds(15)) {
        self.maximumImageSize = maximumImageSize
        self.timeout = timeout
        roots =
            Self.trustRootFiles.lazy.compactMap { path -> TLSClientConfiguration.Verification? in
                guard let pem = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
                return try? TLSClientConfiguration.Verification.trustRoots(pem: pem)
            }.first
    }

    /// Downloads the image at `url`.
    ///
    /// Cancellation is checked before each request (the first and every redirect): a
    /// cancelled task throws ``ImageCacheError/Kind/cancelled`` without connecting; a request
    /// already under way runs to its end or its ``timeout``.
    /// - Throws: ``ImageCacheError``.
    public func fetch(_ url: URL) async throws(ImageCacheError) -> [UInt8] {
        var current = url
        for _ in 0...3 {
            guard !Task.isCancelled else {
                throw ImageCacheError(.cancelled, url: url.absoluteString, "the download was cancelled")
            }
            let scheme = current.scheme?.lowercased()
            guard scheme == "http" || scheme == "https" else {
                throw ImageCacheError(.unsupportedURL, url: url.absoluteString, "only http and https URLs are fetched")
            }
            var client = HTTPClient()
            client.timeout = timeout
            client.maximumBodySize = maximumImageSize
            if scheme == "https" {
                guard let roots else {
                    throw ImageCacheError(
                        .fetchFailed,
                        url: url.absoluteString,
                        "no system trust roots could be read to check the HTTPS certificate"
                    )
                }
                client.tls.verification = roots
            }
            let response: HTTPClientResponse
            do {
                response = try await client.get(current.absoluteString, headers: ["Accept": "image/*"])
            } catch {
                throw ImageCacheError(.fetchFailed, url: url.absoluteString, "\(error)")
            }
            switch response.status.code {
            case 200:
                guard response.body.count <= maximumImageSize else {
                    throw ImageCacheError(.tooLarge, url: url.absoluteString, "\(response.body.count) bytes")
                }
                return response.body
            case 301, 302, 303, 307, 308:
                guard let location = response.headers["Location"], let next = URL(string: location, relativeTo: current)
                else {
                    throw ImageCacheError(.httpStatus, url: url.absoluteString, "redirect without a usable Location")
                }
                current = next.absoluteURL
            default:
                throw ImageCacheError(.httpStatus, url: url.absoluteString, "HTTP status \(response.status)")
            }
        }
        throw ImageCacheError(.tooManyRedirects, url: url.absoluteString, "more than 3 redirects")
    }
}
