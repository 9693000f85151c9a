import CastCrypto
import CastNet
import CastNetCore
import CastTestSupport
import CastTime
import Foundation
import Testing

/// The HTTP server and client over real sockets: files streamed through the kernel, HTTPS,
/// the client's timeout, curl, and the request timer's race with a client reading the
/// response. One connection's parsing, keep-alive and timeouts are in
/// ``HTTPServerConnectionInMemoryTests``.
@Suite(.requires(.openssl)) struct HTTPServerTests {
    /// A file of known bytes for range requests.
    private static let mediaFile: (path: String, bytes: [UInt8]) = {
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 8) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("castnet-http-\(getpid()).bin").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return (path, bytes)
    }()

    private func routes() -> HTTPRoutes {
        var routes = HTTPRoutes()
        routes.add(.get, "/setup/eureka_info") { request in
            .ok(
                .text("{\"name\":\"Living Room\",\"query\":\"\(request.query ?? "")\"}"),
                contentType: "application/json"
            )
        }
        routes.add(.post, "/echo") { request in
            .ok(.bytes(request.body), contentType: "application/octet-stream")
        }
        routes.add(.get, "/media.bin") { _ in
            .ok(.file(path: Self.mediaFile.path), contentType: "application/octet-stream")
        }
        routes.add(.get, "/missing.bin") { _ in
            .ok(.file(path: "/nonexistent/file"), contentType: "application/octet-stream")
        }
        return routes
    }

    /// A client whose deadline leaves room for a loaded machine: the whole test suite runs
    /// in one process on two cores, so a request may wait seconds for a thread.
    private static func patientClient() -> HTTPClient {
        var client = HTTPClient()
        client.timeout = .seconds(60)
        return client
    }

    /// The default limits with a request timeout that a loaded machine cannot reach by
    /// accident (the timeout itself is tested on a manual clock).
    private static func patientConfiguration() -> HTTPServerConfiguration {
        var configuration = HTTPServerConfiguration()
        configuration.requestTimeout = .seconds(120)
        return configuration
    }

    private func makeServer(
        tls: TLSServerConfiguration? = nil,
        configuration: HTTPServerConfiguration = patientConfiguration(),
        clock: any CastClock = SystemCastClock()
    ) throws -> HTTPServer {
        try HTTPServer(
            address: .loopbackIPv4(),
            tls: tls,
            routes: routes(),
            configuration: configuration,
            clock: clock
        )
    }

    /// Reads from a raw connection until the peer closes; returns everything received.
    private func readToEnd(_ connection: TCPConnection) async -> String {
        var bytes: [UInt8] = []
        while true {
            do {
                guard let chunk = try await connection.receive() else { break }
                bytes += chunk
            } catch {
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func servesGetHeadPostAndErrors() async throws {
        let server = try makeServer()
        defer { server.close() }
        let base = "http://127.0.0.1:\(server.localAddress.port)"
        let client = Self.patientClient()

        let info = try await client.get("\(base)/setup/eureka_info?params=name")
        #expect(info.status == .ok)
        #expect(info.headers["Content-Type"] == "application/json")
        #expect(String(decoding: info.body, as: UTF8.self) == "{\"name\":\"Living Room\",\"query\":\"params=name\"}")

        let head = try await client.execute(.head, url: "\(base)/setup/eureka_info")
        #expect(head.status == .ok)
        #expect(head.body.isEmpty)
        #expect(head.headers["Content-Length"] == String(info.body.count - "params=name".count))

        let posted = try await client.execute(.post, url: "\(base)/echo", body: Array("payload".utf8))
        #expect(posted.body == Array("payload".utf8))

        #expect(try await client.get("\(base)/nothing").status == .notFound)
        let wrongMethod = try await client.execute(.post, url: "\(base)/setup/eureka_info")
        #expect(wrongMethod.status == .methodNotAllowed)
        #expect(wrongMethod.headers["Allow"] == "GET, HEAD")
        #expect(try await client.get("\(base)/missing.bin").status == .notFound)
    }

    @Test func servesByteRangesOfFiles() async throws {
        let server = try makeServer()
        defer { server.close() }
        let url = "http://127.0.0.1:\(server.localAddress.port)/media.bin"
        let client = Self.patientClient()
        let file = Self.mediaFile.bytes

        let whole = try await client.get(url)
        #expect(whole.status == .ok)
        #expect(whole.headers["Accept-Ranges"] == "bytes")
        #expect(whole.body == file)

        let middle = try await client.get(url, headers: ["Range": "bytes=1000-1999"])
        #expect(middle.status == .partialContent)
        #expect(middle.headers["Content-Range"] == "bytes 1000-1999/\(file.count)")
        #expect(middle.body == Array(file[1000...1999]))

        let tail = try await client.get(url, headers: ["Range": "bytes=-100"])
        #expect(tail.body == Array(file.suffix(100)))

        let beyond = try await client.get(url, headers: ["Range": "bytes=\(file.count)-"])
        #expect(beyond.status == .rangeNotSatisfiable)
        #expect(beyond.headers["Content-Range"] == "bytes */\(file.count)")
        #expect(beyond.body.isEmpty)
    }

    /// Reads one response (head and `Content-Length` body) from a kept-alive connection.
    private func readResponse(_ connection: TCPConnection) async throws -> String {
        var bytes: [UInt8] = []
        while true {
            let text = String(decoding: bytes, as: UTF8.self)
            if let headEnd = text.range(of: "\r\n\r\n") {
                let length =
                    text[..<headEnd.lowerBound].split(separator: "\r\n")
                    .first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                let headLength = text.utf8.distance(from: text.utf8.startIndex, to: headEnd.upperBound)
                if bytes.count >= headLength + length { return text }
            }
            guard let chunk = try await connection.receive() else {
                throw TestFailure("the server closed before the whole response arrived")
            }
            bytes += chunk
        }
    }

    /// The request timer of a kept-alive connection must run before the client can hold the
    /// whole response: a client (or a test advancing a manual clock) that acts on the response
    /// at once must find the timer armed. The clock makes scheduling slow, so a server that
    /// armed the timer after writing would be caught every time.
    @Test(arguments: ["/setup/eureka_info", "/media.bin"])
    func idleTimerIsArmedBeforeAKeptAliveResponseArrives(path: String) async throws {
        let clock = SlowSchedulingClock()
        var configuration = HTTPServerConfiguration()
        configuration.requestTimeout = .seconds(10)
        let server = try makeServer(configuration: configuration, clock: clock)
        defer { server.close() }
        let connection = try await TCPConnection.connect(to: server.localAddress)
        for _ in 0..<3 {
            try await connection.send(Array("GET \(path) HTTP/1.1\r\nRange: bytes=0-99\r\n\r\n".utf8))
            let response = try await readResponse(connection)
            #expect(response.hasPrefix("HTTP/1.1 20"))
            #expect(clock.manual.scheduledTimerCount == 1)
        }
        clock.manual.advance(by: .seconds(10))
        #expect(await readToEnd(connection).isEmpty)
    }

    @Test func servesHTTPSWithASelfSignedCertificate() async throws {
        let identity = try SelfSignedCertificate.generate(commonName: "device")
        let server = try makeServer(tls: TLSServerConfiguration(identity))
        defer { server.close() }
        let url = "https://127.0.0.1:\(server.localAddress.port)/setup/eureka_info?params=device_info,name"
        let response = try await Self.patientClient().get(url)
        #expect(response.status == .ok)
        #expect(String(decoding: response.body, as: UTF8.self).contains("Living Room"))

        var verifying = Self.patientClient()
        verifying.tls.verification = .trustRoots([TestIdentity.other.certificate])
        await #expect {
            try await verifying.get(url)
        } throws: { error in
            (error as? TLSError)?.code == .certificateRejected
        }
    }

    @Test func clientTimesOutOnASilentServer() async throws {
        let silent = try TCPListener(address: .loopbackIPv4())
        defer { silent.close() }
        let clock = ManualCastClock()
        var client = HTTPClient()
        client.clock = clock
        client.timeout = .seconds(3)
        let task = Task { try await client.get("http://127.0.0.1:\(silent.localAddress.port)/") }
        var iterator = silent.connections.makeAsyncIterator()
        let accepted = try #require(await iterator.next())
        // The request arrives; the server never answers.
        _ = try await accepted.receive()
        clock.advance(by: .seconds(3))
        await #expect {
            try await task.value
        } throws: { error in
            (error as? TCPError)?.code == .timedOut
        }
        accepted.close()
    }

    // MARK: curl

    private func curl(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        guard let path = RepositoryPaths.executableOnPath("curl") else { throw TestFailure("curl is not installed") }
        let process = try ChildProcess(
            path,
            ["--silent", "--show-error", "--max-time", "90"] + arguments,
            deadline: .seconds(120)
        )
        let status = await process.waitForExit(timeout: .seconds(120))
        return (status, process.outputText)
    }

    @Test(.requires(.curl), arguments: ["0-0", "100-1099", "299000-", "-4096", "5000-4000000"])
    func curlFetchesRanges(range: String) async throws {
        let server = try makeServer()
        defer { server.close() }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(getpid())-\(range).bin").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try await curl([
            "--range", range, "--output", output, "--write-out", "%{http_code}",
            "http://127.0.0.1:\(server.localAddress.port)/media.bin",
        ])
        #expect(result.status == 0)
        #expect(result.output == "206")
        let file = Self.mediaFile.bytes
        let expected: [UInt8]
        let bounds = range.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        switch (bounds[0], bounds[1]) {
        case (let start?, let end?): expected = Array(file[start...min(end, file.count - 1)])
        case (let start?, nil): expected = Array(file[start...])
        case (nil, let suffix?): expected = Array(file.suffix(suffix))
        default: expected = []
        }
        let received = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(received == expected)
    }

    @Test(.requires(.curl)) func curlSeesUnsatisfiableRangeAndKeepAlive() async throws {
        let server = try makeServer()
        defer { server.close() }
        let base = "http://127.0.0.1:\(server.localAddress.port)"
        let unsatisfiable = try await curl([
            "--range", "400000-", "--output", "/dev/null", "--write-out", "%{http_code}", "\(base)/media.bin",
        ])
        #expect(unsatisfiable.output == "416")
        // Two URLs on one command line: curl reuses the kept-alive connection.
        let twice = try await curl([
            "--write-out", "%{num_connects}\n", "--output", "/dev/null", "--output", "/dev/null",
            "\(base)/setup/eureka_info", "\(base)/setup/eureka_info",
        ])
        #expect(twice.status == 0)
        #expect(twice.output.split(separator: "\n") == ["1", "0"])
    }

    @Test(.requires(.curl)) func curlTalksHTTPSToAServerWithASelfSignedCertificate() async throws {
        let server = try makeServer(tls: TestIdentity.server.serverConfiguration)
        defer { server.close() }
        let result = try await curl(["--insecure", "https://127.0.0.1:\(server.localAddress.port)/setup/eureka_info"])
        #expect(result.status == 0)
        #expect(result.output.contains("Living Room"))
    }
}

/// A manual clock whose `schedule` takes a while, as on a loaded machine: the gap between
/// what a server writes and the timers it schedules becomes wide enough to observe.
private final class SlowSchedulingClock: CastClock {
    let manual = ManualCastClock()

    var now: CastInstant { manual.now }

    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> CastTimer {
        // Blocking on purpose: the delay is the slowness under test, on the server's real
        // epoll loop, between the bytes it wrote and the timer it schedules.
        usleep(50_000)
        return manual.schedule(after: delay, action)
    }
}
