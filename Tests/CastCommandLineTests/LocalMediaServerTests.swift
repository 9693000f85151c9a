import CastNet
import CastNetCore
import CastTestSupport
import Foundation
import Testing

@testable import CastCommandLine

#if canImport(Glibc)
import Glibc
#endif

/// The file server of `cast play FILE`: tokens, descriptors opened once, who may connect,
/// and which responses carry CORS.
@Suite struct LocalMediaServerTests {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cast-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A server on 127.0.0.1 for a device at `device`, serving one file and a text track.
    static func start(file: URL, device: String = "127.0.0.2") throws -> LocalMediaServer {
        try LocalMediaServer(
            address: "127.0.0.1",
            device: device,
            entries: [
                .init(name: "movie.mp4", content: .file(path: file.path), contentType: "video/mp4"),
                .init(
                    name: "subtitles.vtt",
                    content: .bytes(Array("WEBVTT\n".utf8)),
                    contentType: "text/vtt",
                    crossOrigin: true
                ),
            ],
            configuration: patientServer
        )
    }

    /// Timeouts that outlast a loaded run: these tests check what is served, not when.
    static var patientServer: HTTPServerConfiguration {
        var configuration = HTTPServerConfiguration()
        configuration.requestTimeout = TestTiming.patience
        return configuration
    }

    static var patientClient: HTTPClient {
        var client = HTTPClient()
        client.timeout = TestTiming.patience
        return client
    }

    /// Sends a raw GET from a socket bound to `source` and returns everything the server
    /// sends back before closing (at most ``TestTiming/patience``: a server that neither
    /// answers nor closes fails the test, a slow one does not). The blocking socket calls run
    /// on a thread of their own, never on one of the few threads of the shared pool, which the
    /// other suites need meanwhile.
    static func rawGet(from source: String, to server: LocalMediaServer, path: String) async throws -> String {
        let port = try #require(Int(server.baseURL.split(separator: ":").last ?? ""))
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try blockingGet(from: source, port: port, path: path) })
            }
        }
    }

    /// The blocking part of ``rawGet(from:to:path:)``.
    static func blockingGet(from source: String, port: Int, path: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        // A hang guard, not a timing claim: a fixed 10 s ran out under a sanitizer while the
        // server, starved of CPU, was still answering.
        var timeout = timeval(tv_sec: Int(TestTiming.patience.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        func address(_ ip: String, _ port: Int) -> sockaddr_in {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr(ip)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            return address
        }
        var local = address(source, 0)
        var remote = address("127.0.0.1", port)
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        try #require(bound == 0)
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
        }
        try #require(connected == 0)
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[0..<count]
                continue
            }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                Issue.record("the server neither answered nor closed the connection")
            }
            break
        }
        return String(decoding: received, as: UTF8.self)
    }

    @Test func entriesAreServedOnlyUnderTheirRandomToken() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("movie.mp4")
        try Data("original".utf8).write(to: file)
        let server = try Self.start(file: file)
        defer { server.stop() }

        let tokens = server.paths.map { $0.split(separator: "/")[1] }
        #expect(tokens.count == 2)
        #expect(Set(tokens).count == 2)
        for token in tokens {
            #expect(token.count == 32)
            #expect(token.allSatisfy { $0.isHexDigit })
        }
        #expect(server.paths[0].hasPrefix("/media/") && server.paths[0].hasSuffix("/movie.mp4"))

        let client = Self.patientClient
        let right = try await client.get(server.baseURL + server.paths[0])
        #expect(right.status.code == 200)
        #expect(right.body == Array("original".utf8))
        let wrongToken = "/media/" + String(repeating: "0", count: 32) + "/movie.mp4"
        let otherToken = "/media/\(tokens[1])/movie.mp4"
        for path in ["/media/0/movie.mp4", wrongToken, otherToken, "/movie.mp4", "/media/movie.mp4", "/"] {
            let response = try await client.get(server.baseURL + path)
            #expect(response.status.code == 404, "\(path)")
        }
    }

    @Test func theFileOpenedAtStartIsServedAfterItsPathBecomesASymlink() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("movie.mp4")
        let secret = directory.appendingPathComponent("secret.txt")
        let original = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        try Data(original).write(to: file)
        try Data("private key".utf8).write(to: secret)
        let server = try Self.start(file: file)
        defer { server.stop() }

        try FileManager.default.removeItem(at: file)
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: secret)
        let url = server.baseURL + server.paths[0]
        let whole = try await Self.patientClient.get(url)
        #expect(whole.status.code == 200)
        #expect(whole.body == original)
        let ranged = try await Self.patientClient.execute(.get, url: url, headers: ["Range": "bytes=500-1499"])
        #expect(ranged.status.code == 206)
        #expect(ranged.headers["Content-Range"] == "bytes 500-1499/100000")
        #expect(ranged.body == Array(original[500...1499]))

        // A path that is a symlink when the server starts is refused outright.
        #expect(throws: HTTPServedFile.OpenError.self) { _ = try Self.start(file: file) }
        do {
            _ = try HTTPServedFile(path: file.path)
        } catch {
            #expect(error.errno == ELOOP)
        }
        #expect(throws: HTTPServedFile.OpenError.self) { _ = try HTTPServedFile(path: directory.path) }
    }

    @Test func onlyTheDeviceAndThisHostMayConnect() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("movie.mp4")
        try Data("original".utf8).write(to: file)
        let server = try Self.start(file: file, device: "127.0.0.2")
        defer { server.stop() }
        let path = server.paths[0]

        // Another host (here another loopback address) gets the connection closed unanswered.
        #expect(try await Self.rawGet(from: "127.0.0.5", to: server, path: path) == "")
        // The device and this host itself are served.
        let fromDevice = try await Self.rawGet(from: "127.0.0.2", to: server, path: path)
        #expect(fromDevice.hasPrefix("HTTP/1.1 200"))
        #expect(fromDevice.hasSuffix("\r\n\r\noriginal"))
        #expect(try await Self.rawGet(from: "127.0.0.1", to: server, path: path).hasPrefix("HTTP/1.1 200"))
    }

    @Test func onlyTextTracksCarryCORSAndOnlyForHTTPSOrigins() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("movie.mp4")
        try Data("original".utf8).write(to: file)
        let server = try Self.start(file: file)
        defer { server.stop() }
        let client = Self.patientClient
        let receiver = "https://www.gstatic.com"

        let media = try await client.get(server.baseURL + server.paths[0], headers: ["Origin": receiver])
        #expect(media.status.code == 200)
        #expect(media.headers["Access-Control-Allow-Origin"] == nil)

        let track = try await client.get(server.baseURL + server.paths[1], headers: ["Origin": receiver])
        #expect(track.headers["Access-Control-Allow-Origin"] == receiver)
        #expect(track.headers["Vary"] == "Origin")
        for origin in ["http://attacker.example", "null", "https://", "https://a.example/\r\nX: y", "*"] {
            #expect(LocalMediaServer.allowedOrigin(origin) == nil, "\(origin)")
        }
        let plain = try await client.get(
            server.baseURL + server.paths[1],
            headers: ["Origin": "http://attacker.example"]
        )
        #expect(plain.status.code == 200)
        #expect(plain.headers["Access-Control-Allow-Origin"] == nil)
        let none = try await client.get(server.baseURL + server.paths[1])
        #expect(none.headers["Access-Control-Allow-Origin"] == nil)
        #expect(LocalMediaServer.allowedOrigin("https://[::1]:8443") == "https://[::1]:8443")
    }

    @Test func addressesAreComparedWithoutZonesAndMappedPrefixes() {
        #expect(LocalMediaServer.normalized("::ffff:192.168.1.5") == "192.168.1.5")
        #expect(LocalMediaServer.normalized("FE80::1%eth0") == "fe80::1")
        #expect(LocalMediaServer.normalized("[::1]") == "::1")
        #expect(LocalMediaServer.normalized("::ffff:1") == "::ffff:1")
    }

    @Test func stoppingClosesTheListenerAndTheFiles() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("movie.mp4")
        try Data("original".utf8).write(to: file)
        let server = try Self.start(file: file)
        let url = server.baseURL + server.paths[0]
        #expect(try await Self.patientClient.get(url).status.code == 200)
        server.stop()
        // The listener closes on its loop; a connection that slips in before gets no content,
        // since the files are already closed.
        if let late = try? await Self.patientClient.get(url) {
            #expect(late.status.code == 404)
            #expect(late.body != Array("original".utf8))
        }
        // Once the listener is gone, connecting fails.
        // The kernel's table shows when the listening socket is gone.
        let port = try #require(URL(string: url)?.port)
        try await pollUntil("the listener to close", within: .seconds(10)) {
            KernelSockets.count(state: .listen, localPort: port) == 0
        }
        #expect((try? await Self.patientClient.get(url)) == nil, "connecting fails once the listener is gone")
    }
}
