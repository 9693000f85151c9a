import CastNet
import CastNetCore
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastSenderUI

/// A loopback HTTP server serving images of given sizes, counting requests, and able to
/// hold responses until a test releases them.
final class ImageServer: Sendable {
    private struct State {
        var hits: [String: Int] = [:]
        var held = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private final class Box: Sendable {
        let state = Locked(State())
    }

    private let box = Box()
    private let server: HTTPServer

    init() throws {
        var routes = HTTPRoutes()
        routes.addPrefix(.get, "/") { [box] request in
            let path = request.path
            let hold = box.state.withLock { state -> Bool in
                state.hits[path, default: 0] += 1
                return state.held
            }
            if hold {
                await withCheckedContinuation { continuation in
                    let released = box.state.withLock { state -> Bool in
                        guard state.held else { return true }
                        state.waiting.append(continuation)
                        return false
                    }
                    if released { continuation.resume() }
                }
            }
            if path == "/missing" { return .status(.notFound) }
            if path == "/moved" {
                return HTTPResponse(status: HTTPStatus(code: 302), headers: ["Location": "/img/7"])
            }
            if path == "/loop" { return HTTPResponse(status: HTTPStatus(code: 301), headers: ["Location": "/loop"]) }
            let size = Int(path.split(separator: "/").last ?? "") ?? 1
            return .ok(.bytes([UInt8](repeating: UInt8(size % 251), count: size * 100)), contentType: "image/png")
        }
        server = try HTTPServer(address: .loopbackIPv4(port: 0), routes: routes)
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(server.localAddress.port)\(path)")! }

    func hits(_ path: String) -> Int { box.state.withLock { $0.hits[path] ?? 0 } }

    func hold() { box.state.withLock { $0.held = true } }

    func release() {
        let waiting = box.state.withLock { state in
            state.held = false
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    func close() { server.close() }
}

@Suite struct DiskImageCacheTests {
    @Test func downloadsOnceThenServesFromDisk() async throws {
        let server = try ImageServer()
        defer { server.close() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = DiskImageCache(directory: directory.url, maximumBytes: 10_000)
        let first = try await cache.image(for: server.url("/img/3"))
        #expect(first.count == 300)
        let second = try await cache.image(for: server.url("/img/3"))
        #expect(second == first)
        #expect(server.hits("/img/3") == 1)
        #expect(cache.contains(server.url("/img/3")) && cache.totalBytes == 300)

        // A new instance (a new launch) finds the file.
        let relaunched = DiskImageCache(directory: directory.url, maximumBytes: 10_000)
        #expect(relaunched.count == 1 && relaunched.totalBytes == 300)
        #expect(try await relaunched.image(for: server.url("/img/3")) == first)
        #expect(server.hits("/img/3") == 1)
    }

    @Test func evictsTheLeastRecentlyUsedImage() async throws {
        let server = try ImageServer()
        defer { server.close() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = DiskImageCache(directory: directory.url, maximumBytes: 1_000)
        _ = try await cache.image(for: server.url("/a/4"))
        _ = try await cache.image(for: server.url("/b/4"))
        _ = try await cache.image(for: server.url("/a/4"))
        _ = try await cache.image(for: server.url("/c/4"))
        #expect(cache.contains(server.url("/a/4")) && cache.contains(server.url("/c/4")))
        #expect(!cache.contains(server.url("/b/4")))
        #expect(cache.totalBytes == 800)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(files.count == 2)
        _ = try await cache.image(for: server.url("/b/4"))
        #expect(server.hits("/b/4") == 2)
        #expect(server.hits("/a/4") == 1)
        #expect(!cache.contains(server.url("/a/4")))

        // Shrinking the limit on relaunch evicts down to it.
        let smaller = DiskImageCache(directory: directory.url, maximumBytes: 500)
        #expect(smaller.count == 1 && smaller.totalBytes == 400)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).count == 1)
    }

    @Test func concurrentRequestsForOneURLShareOneDownload() async throws {
        let server = try ImageServer()
        defer { server.close() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = DiskImageCache(directory: directory.url, maximumBytes: 100_000)
        server.hold()
        let url = server.url("/img/5")
        let results = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<8 { group.addTask { try await cache.image(for: url) } }
            // The cache's joins and the real server's hits announce nothing: polled.
            let joined =
                (try? await pollUntil("seven requests to join the one fetch") {
                    cache.joinedCount == 7 && server.hits("/img/5") == 1
                }) != nil
            server.release()
            #expect(joined)
            var results: [[UInt8]] = []
            for try await bytes in group { results.append(bytes) }
            return results
        }
        #expect(results.count == 8 && Set(results).count == 1 && results[0].count == 500)
        #expect(server.hits("/img/5") == 1)
        #expect(cache.downloadCount == 1)
    }

    @Test func failuresAreTypedAndNotCached() async throws {
        let server = try ImageServer()
        defer { server.close() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = DiskImageCache(directory: directory.url, maximumBytes: 100_000)
        let missing = server.url("/missing")
        await #expect(throws: ImageCacheError(.httpStatus, url: missing.absoluteString, "")) {
            try await cache.image(for: missing)
        }
        await #expect(throws: ImageCacheError(.httpStatus, url: missing.absoluteString, "")) {
            try await cache.image(for: missing)
        }
        #expect(server.hits("/missing") == 2)
        let ftp = URL(string: "ftp://127.0.0.1/image.png")!
        await #expect(throws: ImageCacheError(.unsupportedURL, url: ftp.absoluteString, "")) {
            try await cache.image(for: ftp)
        }
        let loop = server.url("/loop")
        await #expect(throws: ImageCacheError(.tooManyRedirects, url: loop.absoluteString, "")) {
            try await cache.image(for: loop)
        }
        #expect(cache.count == 0)
    }

    @Test func followsRedirectsAndLimitsSize() async throws {
        let server = try ImageServer()
        defer { server.close() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = DiskImageCache(
            directory: directory.url,
            maximumBytes: 100_000,
            fetcher: HTTPImageFetcher(maximumImageSize: 1_000)
        )
        #expect(try await cache.image(for: server.url("/moved")).count == 700)
        #expect(server.hits("/img/7") == 1)
        let large = server.url("/img/20")
        await #expect(throws: ImageCacheError.self) { try await cache.image(for: large) }
        #expect(!cache.contains(large))
    }

    @Test func defaultDirectoryIsUnderTheUserCache() {
        let directory = DiskImageCache.defaultDirectory()
        #expect(directory.path.hasSuffix("swift-cast/images"))
        if let xdg = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            #expect(directory.path.hasPrefix(xdg))
        } else {
            #expect(directory.path.contains("/.cache/"))
        }
        let chosen = DiskImageCache.defaultDirectory(appName: "app", base: URL(fileURLWithPath: "/srv/cache"))
        #expect(chosen.path == "/srv/cache/app/images")
    }

    @Test func removeAllDeletesTheFiles() async throws {
        let server = try ImageServer()
        defer { server.close() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = DiskImageCache(directory: directory.url, maximumBytes: 100_000)
        _ = try await cache.image(for: server.url("/img/1"))
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalBytes == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }
}
