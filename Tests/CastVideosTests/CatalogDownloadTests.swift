import CastNet
import CastNetCore
import CastTestSupport
import Foundation
import Synchronization
import Testing

@testable import castvideos

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#endif

/// `--catalog URL` streams the download and stops at ``Catalog/maximumSize``.
@Suite struct CatalogDownloadTests {
    /// A server with a small valid catalog, a 1 GiB file (sparse, so declared but never
    /// written to disk) and nothing else.
    static func startServer(directory: URL) throws -> HTTPServer {
        let huge = directory.appendingPathComponent("huge.json")
        _ = FileManager.default.createFile(atPath: huge.path, contents: nil)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        let file = try HTTPServedFile(path: huge.path)
        var routes = HTTPRoutes()
        routes.add(.get, "/huge.json") { _ in .ok(.openFile(file), contentType: "application/json") }
        routes.add(.get, "/catalog.json") { _ in
            .ok(.bytes(Array(BuiltInCatalog.json.utf8)), contentType: "application/json")
        }
        var configuration = HTTPServerConfiguration()
        configuration.requestTimeout = TestTiming.patience
        return try HTTPServer(address: .loopbackIPv4(), routes: routes, configuration: configuration)
    }

    @Test func aDeclaredLengthOverTheCapIsRefusedBeforeTheBody() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try Self.startServer(directory: directory)
        defer { server.close() }
        let base = "http://127.0.0.1:\(server.localAddress.port)"

        #expect(
            try await CatalogSource(argument: base + "/catalog.json").load(timeout: TestTiming.patience).items.count
                == 11
        )
        do {
            _ = try await CatalogSource(argument: base + "/huge.json").load(timeout: TestTiming.patience)
            Issue.record("loaded a 1 GiB catalog")
        } catch {
            #expect(error.rawValue == 7)
            #expect(
                error.description
                    == "catalog \(base)/huge.json is 1073741824 bytes (Content-Length), larger than 4194304 bytes"
            )
        }
        do {
            _ = try await CatalogSource(argument: base + "/missing.json").load(timeout: TestTiming.patience)
            Issue.record("loaded a missing catalog")
        } catch {
            #expect(error.rawValue == 8)
            #expect(error.description.contains("HTTP status 404"))
        }
    }

    /// The `https` path (URLSession, which verifies certificates) applies the same two checks;
    /// Foundation on Linux reads ahead without backpressure, so only the result is checked.
    @Test func theURLSessionPathRefusesDeclaredAndRunningOversizes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try Self.startServer(directory: directory)
        defer { server.close() }
        let base = "http://127.0.0.1:\(server.localAddress.port)"
        func fetch(_ url: String) async -> CappedDownload.Outcome {
            await CappedDownload.fetch(URLRequest(url: URL(string: url)!), limit: Catalog.maximumSize)
        }
        #expect(await fetch(base + "/huge.json") == .declaredTooLarge(1 << 30))
        #expect(await fetch(base + "/missing.json") == .status(404))
        #expect(await fetch(base + "/catalog.json") == .body(Array(BuiltInCatalog.json.utf8)))
        let endless = try UnboundedBodyServer(total: 16 << 20)
        #expect(await fetch("http://127.0.0.1:\(endless.port)/endless.json") == .tooLarge)
        _ = await endless.bodyBytesSent()
    }

    @Test func aBodyWithoutALengthIsCutOffAtTheCap() async throws {
        let total = 256 << 20
        let server = try UnboundedBodyServer(total: total)
        do {
            _ = try await CatalogSource(argument: "http://127.0.0.1:\(server.port)/endless.json").load(
                timeout: TestTiming.patience
            )
            Issue.record("loaded an endless catalog")
        } catch {
            #expect(error.rawValue == 7)
            #expect(
                error.description == "catalog http://127.0.0.1:\(server.port)/endless.json is larger than 4194304 bytes"
            )
        }
        let sent = try #require(await server.bodyBytesSent())
        // The client stopped reading near the cap: what was sent beyond it sits in socket
        // buffers, far below the 256 MiB on offer.
        #expect(sent > Catalog.maximumSize)
        #expect(sent < 64 << 20, "sent \(sent) bytes")
    }
}

/// Accepts one connection on loopback, answers with a body that has no length and ends
/// only when the connection closes, and writes up to `total` bytes; returns how many the
/// client took before closing. Blocking calls time out after ``TestTiming/patience``.
final class UnboundedBodyServer: Sendable {
    final class Progress: Sendable {
        let sent = Mutex<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
    }

    let port: Int
    private let listener: Int32
    private let progress = Progress()

    init(total: Int) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 1) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        try #require(bound)
        port = Int(UInt16(bigEndian: address.sin_port))
        let progress = self.progress
        Thread.detachNewThread {
            defer { progress.done.signal() }
            // A hang guard only: a client slowed by a loaded (or sanitized) run is waited for.
            var timeout = timeval(tv_sec: Int(TestTiming.patience.components.seconds), tv_usec: 0)
            setsockopt(listener, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            defer { close(client) }
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var request: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !request.suffix(4).elementsEqual("\r\n\r\n".utf8) {
                let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return }
                request += buffer[0..<count]
            }
            let head = Array(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[".utf8
            )
            _ = head.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 64 * 1024)
            var written = 0
            while written < total {
                let count = chunk.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard count > 0 else { break }
                written += count
            }
            progress.sent.withLock { $0 = written }
        }
    }

    /// The bytes of body sent before the client closed (waits for the server thread).
    func bodyBytesSent() async -> Int? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                self.progress.done.wait()
                continuation.resume(returning: self.progress.sent.withLock { $0 })
            }
        }
    }

    deinit { close(listener) }
}
