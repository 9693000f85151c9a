import CastCore
import CastNet
import CastNetCore
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

        /// Whether `body` (read from offset 0) is the whole resource.
        var isWhole: Bool { totalLength.map { body.count >= $0 } ?? false }
    }

    /// Reads the media at `url` and reports what a receiver learns from it.
    /// - Parameter contentType: the LOAD's `contentType`, which picks HLS before any byte.
    /// - Throws: ``MediaLoadFailure`` with the receiver's detailed error code.
    func probe(url: String, contentType: String?) async throws(MediaLoadFailure) -> MediaProbeResult {
        let result = try await probeMedia(url: url, contentType: contentType)
        // A duration no clock holds is reported as the error it is, never replaced by the
        // simulated one (manifests report theirs with their own codes before this).
        if let duration = result.duration, !(WireNumber.isValidSeconds(duration) && duration >= 0) {
            throw .decode("duration \(duration) s, beyond \(WireNumber.maximumSeconds) s")
        }
        return result
    }

    private func probeMedia(url: String, contentType: String?) async throws(MediaLoadFailure) -> MediaProbeResult {
        let declared = contentType?.lowercased() ?? ""
        let path = URLComponents(string: url)?.path.lowercased() ?? ""
        let hlsDeclared = declared.contains("mpegurl") || path.hasSuffix(".m3u8")
        let dashDeclared = declared.contains("dash+xml") || path.hasSuffix(".mpd")
        if declared.hasPrefix("image/") {
            let head = try await fetchHead(url, failure: MediaLoadFailure.imageError)
            guard Self.imageFormat(head.body) != nil else {
                throw .imageError("not a PNG, JPEG, GIF or WebP picture")
            }
            var result = MediaProbeResult()
            result.isImage = true
            return result
        }
        var failure: (String) -> MediaLoadFailure = MediaLoadFailure.mediaNetwork
        if hlsDeclared {
            failure = MediaLoadFailure.hlsMasterNetwork
        } else if dashDeclared {
            failure = MediaLoadFailure.dashNetwork
        }
        let head = try await fetchHead(url, failure: failure)
        let servedType = head.contentType?.lowercased() ?? ""
        if hlsDeclared || servedType.contains("mpegurl") || head.body.starts(with: Array("#EXTM3U".utf8)) {
            return try await probeHLS(head)
        }
        if dashDeclared || servedType.contains("dash+xml") || DASHManifest.looksLikeMPD(head.body) {
            let text = try await document(
                head,
                limit: DASHManifest.maximumSize,
                failure: MediaLoadFailure.dashNetwork,
                tooLarge: MediaLoadFailure.dashManifestUnknown
            )
            let manifest: DASHManifest
            do { manifest = try DASHManifest.parse(text) } catch { throw .dashManifestUnknown(error.description) }
            if manifest.periodCount == 0 { throw .dashManifestNoPeriods("MPD without a Period") }
            var result = MediaProbeResult(isLive: manifest.isDynamic)
            if !manifest.isDynamic { result.duration = manifest.duration }
            return result
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
        if MatroskaProbe.looksLikeMatroska(head.body) {
            var result: MediaProbeResult
            do { result = try MatroskaProbe.probe(head: head.body, isComplete: head.isWhole) } catch {
                throw MediaLoadFailure(error)
            }
            if result.isLive, head.totalLength == nil { result.followURL = head.url }
            return result
        }
        if WAVProbe.looksLikeWAV(head.body) {
            do { return try WAVProbe.probe(head: head.body) } catch { throw MediaLoadFailure(error) }
        }
        if FLACProbe.looksLikeFLAC(head.body) {
            do { return try FLACProbe.probe(head: head.body) } catch { throw MediaLoadFailure(error) }
        }
        let read: (Int, Int) async throws -> [UInt8] = { offset, count in
            try await fetchRange(head.url, offset: offset, count: count).body
        }
        if OggProbe.looksLikeOgg(head.body) {
            return try await Self.mapping {
                try await OggProbe.probe(head: head.body, fileSize: head.totalLength, read: read)
            }
        }
        // MPEG audio and ADTS AAC, either possibly after ID3v2 tags.
        var audioStart = 0
        while let tag = try? MP3Probe.id3Length(head.body[audioStart...]), audioStart + tag < head.body.count {
            audioStart += tag
        }
        if ADTSProbe.looksLikeADTS(head.body, at: audioStart) {
            do { return try ADTSProbe.probe(head: head.body, start: audioStart, fileSize: head.totalLength) } catch {
                throw MediaLoadFailure(error)
            }
        }
        if MP3Probe.looksLikeMP3(Array(head.body[audioStart...])) || audioStart > 0 {
            return try await Self.mapping {
                try await MP3Probe.probe(head: head.body, fileSize: head.totalLength, read: read)
            }
        }
        throw .notSupported("unrecognised media (\(servedType.isEmpty ? "no content type" : servedType))")
    }

    /// The picture format `bytes` start with (by signature), or `nil`.
    static func imageFormat(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpeg" }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return "gif" }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8) {
            return "webp"
        }
        return nil
    }

    /// Reads a WebVTT text track's first bytes and validates them.
    /// - Throws: ``MediaLoadFailure`` `TEXT_UNKNOWN` (600) for a track that cannot be fetched
    ///   or is not WebVTT.
    func probeTextTrack(url: String) async throws(MediaLoadFailure) -> MediaProbeResult {
        let head = try await fetchHead(url, failure: MediaLoadFailure.textUnknown)
        do {
            _ = try WebVTTValidator.validate(head.body, isComplete: head.isWhole)
        } catch {
            throw .textUnknown(error.description)
        }
        var result = MediaProbeResult(tracks: [.init(kind: .text, number: 1)])
        result.cues = WebVTTValidator.cues(head.body, isComplete: head.isWhole)
        return result
    }

    /// Runs a probe that reads more ranges, mapping its errors to the receiver's.
    private static func mapping(
        _ probe: () async throws -> MediaProbeResult
    ) async throws(MediaLoadFailure) -> MediaProbeResult {
        do {
            return try await probe()
        } catch let error as MediaProbeError {
            throw MediaLoadFailure(error)
        } catch let error as MediaLoadFailure {
            throw error
        } catch {
            throw .mediaNetwork("\(error)")
        }
    }

    /// The whole of a document a player reads whole (a playlist, a manifest) whose first
    /// bytes are `head`: read on up to `limit` bytes when the head was only its start, and
    /// refused, by `tooLarge`, past it.
    private func document(
        _ head: Ranged,
        limit: Int,
        failure: (String) -> MediaLoadFailure,
        tooLarge: (String) -> MediaLoadFailure
    ) async throws(MediaLoadFailure) -> [UInt8] {
        if let total = head.totalLength, total > limit {
            throw tooLarge("\(total) bytes, over the \(limit)-byte limit")
        }
        if head.isWhole || head.body.count < Self.headSize { return head.body }
        let whole: Ranged
        do {
            // One byte past the limit tells a document over it from one that fills it.
            whole = try await fetchRange(head.url, offset: 0, count: limit + 1)
        } catch let error as MediaLoadFailure {
            throw failure(error.reason)
        } catch {
            throw failure("\(error)")
        }
        if whole.body.count > limit || (whole.totalLength ?? 0) > limit {
            throw tooLarge("over the \(limit)-byte limit")
        }
        return whole.body
    }

    private func probeHLS(_ head: Ranged) async throws(MediaLoadFailure) -> MediaProbeResult {
        let text = try await document(
            head,
            limit: HLSPlaylist.maximumSize,
            failure: MediaLoadFailure.hlsMasterNetwork,
            tooLarge: MediaLoadFailure.hlsManifestMaster
        )
        let master: HLSPlaylist
        do { master = try HLSPlaylist.parse(text) } catch { throw .hlsManifestMaster(error.description) }
        switch master {
        case .media(let playlist):
            return playlist.probeResult
        case .master(let variants):
            guard let first = variants.first, let variantURL = URL(string: first, relativeTo: URL(string: head.url))
            else { throw .hlsManifestMaster("variant URI") }
            let variantHead = try await fetchHead(
                variantURL.absoluteString,
                failure: MediaLoadFailure.hlsPlaylistNetwork
            )
            let variant = try await document(
                variantHead,
                limit: HLSPlaylist.maximumSize,
                failure: MediaLoadFailure.hlsPlaylistNetwork,
                tooLarge: MediaLoadFailure.hlsManifestPlaylist
            )
            do {
                guard case .media(let playlist) = try HLSPlaylist.parse(variant) else {
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
            return try await fetchRange(url, offset: 0, count: Self.headSize, isEnough: Self.isHeadEnough)
        } catch let error as MediaLoadFailure {
            throw failure(error.reason)
        } catch {
            var unreachable = failure("\(error)")
            unreachable.isUnreachable = true
            throw unreachable
        }
    }

    /// Reads an open-ended stream (``MediaProbeResult/followURL``) to its end while
    /// `shouldContinue` holds, as a receiver playing a live stream does, keeping only the
    /// timestamp of the latest Matroska block.
    /// - Returns: the seconds of media received when the server ended the stream; `nil` when
    ///   the read was stopped or failed.
    func follow(_ url: String, shouldContinue: @escaping @Sendable () -> Bool) async -> StreamEnd? {
        var headers = HTTPHeaders()
        headers.add(name: "User-Agent", value: "CastEmulator")
        var scanner = MatroskaStreamScanner()
        do {
            let outcome = try await client.follow(url, headers: headers, shouldContinue: shouldContinue) {
                scanner.feed($0)
            }
            guard outcome.serverEnded, (200..<300).contains(outcome.status.code) else { return nil }
            return StreamEnd(mediaSeconds: scanner.isBroken ? nil : scanner.seconds, bytes: outcome.bodyBytes)
        } catch {
            return nil
        }
    }

    /// How much of an open-ended stream the device received before the server ended it.
    struct StreamEnd: Sendable, Equatable {
        /// The timestamp of the latest block, in seconds; `nil` when the stream told none.
        var mediaSeconds: Double?
        /// The body bytes read.
        var bytes: Int
    }

    /// Whether the first bytes of a stream already tell what a probe needs, so the read can
    /// end before ``headSize`` bytes: a live stream delivers them at its own pace.
    @Sendable static func isHeadEnough(_ prefix: [UInt8]) -> Bool {
        guard MatroskaProbe.looksLikeMatroska(prefix) else { return false }
        do {
            _ = try MatroskaProbe.probe(head: prefix, isComplete: false)
            return true
        } catch {
            return error.code != .truncated
        }
    }

    /// Reads `count` bytes at `offset` with a `Range` request, following redirects.
    /// A server that ignores the range answers 200 with the body from its start; the client
    /// stops reading after `offset + count` bytes (a never-ending stream is never waited
    /// for) and the requested slice is cut from it.
    /// - Parameter isEnough: ends the read early once the bytes read so far suffice.
    func fetchRange(
        _ url: String,
        offset: Int,
        count: Int,
        isEnough: (@Sendable ([UInt8]) -> Bool)? = nil
    ) async throws -> Ranged {
        var current = url
        var client = self.client
        client.bodyPrefixLimit = offset + count
        if let isEnough, offset == 0 { client.isBodyPrefixEnough = isEnough }
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
                let declared = response.headers["Content-Length"].flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
                return Ranged(
                    url: current,
                    contentType: response.headers["Content-Type"],
                    body: Array(body[start..<min(body.count, start + count)]),
                    totalLength: response.isPartial ? declared : body.count
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
