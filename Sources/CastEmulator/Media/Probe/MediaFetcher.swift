import CastNet
import Foundation

/// Reads the media a LOAD names, as a receiver's player does, without holding more than a
/// bounded part of it in memory: the first bytes by a ranged `GET`, then only the ranges
/// the format needs (an MP4's `moov` wherever it sits, a playlist's text).
struct MediaFetcher: Sendable {
    /// How many bytes are read first to recognise the format.
    static let headSize = 64 << 10
    /// The most redirects followed for one request.
    var maximumRedirects = 5
    /// The HTTP client; its body limit bounds every read.
    var client: HTTPClient

    /// Creates a fetcher with `timeout` for each request.
    init(timeout: Duration = .seconds(10), tls: TLSClientConfiguration = TLSClientConfiguration()) {
        var client = HTTPClient()
        client.timeout = timeout
        client.tls = tls
        client.maximumBodySize = max(MP4Probe.maximumMovieSize, HLSPlaylist.maximumSize) + 1024
        self.client = client
    }

    /// A body read from `url` (after redirects) and the resource's full length when known.
    struct Ranged: Sendable {
        var url: String
        var contentType: String?
        var body: [UInt8]
        var totalLength: Int?
    }

    /// Reads the media at `url` and reports what a receiver learns from it.
    /// - Parameter contentType: the LOAD's `contentType`, which picks HLS before any byte.
    /// - Throws: ``MediaLoadFailure`` with the receiver's detailed error code.
    func probe(url: String, contentType: String?) async throws(MediaLoadFailure) -> MediaProbeResult {
        let declared = contentType?.lowercased() ?? ""
        let path = URLComponents(string: url)?.path.lowercased() ?? ""
        let hlsDeclared = declared.contains("mpegurl") || path.hasSuffix(".m3u8")
        if declared.hasPrefix("image/") {
            _ = try await fetchHead(url, failure: MediaLoadFailure.mediaNetwork)
            return MediaProbeResult(duration: nil, isLive: false, tracks: [])
        }
        let head = try await fetchHead(
            url,
            failure: hlsDeclared ? MediaLoadFailure.hlsMasterNetwork : MediaLoadFailure.mediaNetwork
        )
        let servedType = head.contentType?.lowercased() ?? ""
        if hlsDeclared || servedType.contains("mpegurl") || head.body.starts(with: Array("#EXTM3U".utf8)) {
            return try await probeHLS(head)
        }
        if MP4Probe.looksLikeMP4(head.body) {
            do {
                return try await MP4Probe.probe(head: head.body, fileSize: head.totalLength) { offset, count in
                    try await fetchRange(head.url, offset: offset, count: count).body
                }
            } catch let error as MediaProbeError {
                throw MediaLoadFailure(error)
            } catch let error as MediaLoadFailure {
                throw error
            } catch {
                throw .mediaNetwork("\(error)")
            }
        }
        if WAVProbe.looksLikeWAV(head.body) {
            do { return try WAVProbe.probe(head: head.body) } catch { throw MediaLoadFailure(error) }
        }
        throw .notSupported("unrecognised media (\(servedType.isEmpty ? "no content type" : servedType))")
    }

    private func probeHLS(_ head: Ranged) async throws(MediaLoadFailure) -> MediaProbeResult {
        let master: HLSPlaylist
        do { master = try HLSPlaylist.parse(head.body) } catch { throw .hlsManifestMaster(error.description) }
        switch master {
        case .media(let playlist):
            return playlist.probeResult
        case .master(let variants):
            guard let first = variants.first, let variantURL = URL(string: first, relativeTo: URL(string: head.url))
            else { throw .hlsManifestMaster("variant URI") }
            let variant = try await fetchHead(variantURL.absoluteString, failure: MediaLoadFailure.hlsPlaylistNetwork)
            do {
                guard case .media(let playlist) = try HLSPlaylist.parse(variant.body) else {
                    throw MediaLoadFailure.hlsManifestPlaylist("variant is a master playlist")
                }
                return playlist.probeResult
            } catch let error as MediaProbeError {
                throw .hlsManifestPlaylist(error.description)
            } catch let error as MediaLoadFailure {
                throw error
            } catch {
                throw .hlsManifestPlaylist("\(error)")
            }
        }
    }

    private func fetchHead(
        _ url: String,
        failure: (String) -> MediaLoadFailure
    ) async throws(MediaLoadFailure) -> Ranged {
        do {
            return try await fetchRange(url, offset: 0, count: Self.headSize)
        } catch let error as MediaLoadFailure {
            throw failure(error.reason)
        } catch {
            var unreachable = failure("\(error)")
            unreachable.isUnreachable = true
            throw unreachable
        }
    }

    /// Reads `count` bytes at `offset` with a `Range` request, following redirects.
    /// A server that ignores the range answers 200 with the whole body (bounded by the
    /// client's body limit); the requested slice is cut from it.
    func fetchRange(_ url: String, offset: Int, count: Int) async throws -> Ranged {
        var current = url
        for _ in 0...maximumRedirects {
            var headers = HTTPHeaders()
            headers.add(name: "Range", value: "bytes=\(offset)-\(offset + count - 1)")
            headers.add(name: "User-Agent", value: "CastEmulator")
            let response = try await client.get(current, headers: headers)
            switch response.status.code {
            case 301, 302, 303, 307, 308:
                guard let location = response.headers["Location"],
                    let next = URL(string: location, relativeTo: URL(string: current))?.absoluteString,
                    next.hasPrefix("http://") || next.hasPrefix("https://")
                else { throw MediaLoadFailure.mediaNetwork("redirect without a usable Location") }
                current = next
                continue
            case 206:
                let total = response.headers["Content-Range"].flatMap(Self.totalLength)
                return Ranged(
                    url: current,
                    contentType: response.headers["Content-Type"],
                    body: Array(response.body.prefix(count)),
                    totalLength: total
                )
            case 200:
                let body = response.body
                let start = min(offset, body.count)
                return Ranged(
                    url: current,
                    contentType: response.headers["Content-Type"],
                    body: Array(body[start..<min(body.count, start + count)]),
                    totalLength: body.count
                )
            case 416:
                return Ranged(url: current, contentType: response.headers["Content-Type"], body: [], totalLength: nil)
            default:
                throw MediaLoadFailure.mediaNetwork("HTTP \(response.status.code)")
            }
        }
        throw MediaLoadFailure.mediaNetwork("more than \(maximumRedirects) redirects")
    }

    /// The complete length in `bytes 0-99/1234`; `nil` for `*` or a malformed value.
    static func totalLength(_ contentRange: String) -> Int? {
        guard let slash = contentRange.lastIndex(of: "/") else { return nil }
        let text = contentRange[contentRange.index(after: slash)...]
        guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }
}
