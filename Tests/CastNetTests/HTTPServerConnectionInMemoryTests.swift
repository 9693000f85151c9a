import CastNetCore
import CastNetEmbedded
import CastSync
import CastTestSupport
import CastTime
import Foundation
import Testing

@testable import CastNet

/// One HTTP server connection on a channel in memory: requests injected, responses read back,
/// the request timer on the embedded loop's clock. Pipelining, keep-alive, the slowloris cut-off
/// and the size limits, step by step with no socket. TLS, files streamed through the kernel and
/// real clients (curl) stay in ``HTTPServerTests``.
@Suite struct HTTPServerConnectionInMemoryTests {
    /// A server connection whose client is the test.
    struct Served {
        let loop = EmbeddedLoop()
        let channel: EmbeddedByteChannel
        let received = Locked<[UInt8]>([])

        init(requestTimeout: Duration = .seconds(10)) {
            var routes = HTTPRoutes()
            routes.add(.get, "/setup/eureka_info") { request in
                .ok(
                    .text("{\"name\":\"Living Room\",\"query\":\"\(request.query ?? "")\"}"),
                    contentType: "application/json"
                )
            }
            var configuration = HTTPServerConfiguration()
            configuration.requestTimeout = requestTimeout
            channel = EmbeddedByteChannel(loop: loop)
            _ = HTTPServerConnection(channel: channel, routes: routes, configuration: configuration, clock: loop.clock)
        }

        /// Everything the server wrote so far, as text.
        var text: String {
            let taken = channel.readOutbound()
            return received.withLock { received in
                received += taken
                return String(decoding: received, as: UTF8.self)
            }
        }

        func send(_ text: String) {
            channel.writeInbound(Array(text.utf8))
        }

        /// Runs the loop until the server wrote something that `condition` accepts (a route
        /// runs in a task of its own and hands its response back to the loop).
        func waitForResponse(_ condition: @escaping @Sendable (String) -> Bool) async throws {
            let served = self
            try await withDeadline(TestTiming.hangGuard, "the response") {
                try await served.loop.run(until: { condition(served.text) })
            }
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrderOnOneConnection() async throws {
        let served = Served()
        let request = "GET /setup/eureka_info?params=name HTTP/1.1\r\nHost: x\r\n\r\n"
        served.send(request + request + "GET /nothing HTTP/1.1\r\nConnection: close\r\n\r\n")
        try await served.waitForResponse { $0.hasSuffix("404 Not Found\n") }
        served.loop.run()
        let text = served.text
        #expect(text.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
        #expect(text.components(separatedBy: "\"query\":\"params=name\"").count == 3)
        #expect(text.contains("HTTP/1.1 404 Not Found"))
        // `Connection: close`: the server closes once its response is out.
        #expect(served.channel.isClosed)
    }

    @Test func aSlowlorisClientIsCutOffAt408AtTheRequestTimeout() async throws {
        let served = Served(requestTimeout: .seconds(10))
        for byte in "GET / HTTP/1.1\r\nX-Slow: ".utf8 {
            served.channel.writeInbound([byte])
            served.loop.advance(by: .milliseconds(100))
        }
        // 2.4 s passed while the 24 bytes trickled in; the timer counts from the connection.
        served.loop.advance(by: .milliseconds(7_599))
        #expect(served.text.isEmpty)
        served.loop.advance(by: .milliseconds(1))
        #expect(served.text.hasPrefix("HTTP/1.1 408 Request Timeout"))
        #expect(served.channel.isOutputShut)
        #expect(!served.channel.isClosed, "the server drains what the client still sends")
        served.loop.advance(by: .seconds(2))
        #expect(served.channel.isClosed)
    }

    @Test func anIdleKeptAliveConnectionClosesWithoutAResponse() async throws {
        let served = Served(requestTimeout: .seconds(10))
        served.send("GET /nothing HTTP/1.1\r\n\r\n")
        try await served.waitForResponse { $0.hasSuffix("404 Not Found\n") }
        served.loop.advance(by: .milliseconds(9_999))
        #expect(!served.channel.isClosed)
        served.loop.advance(by: .milliseconds(1))
        #expect(served.channel.isClosed)
        #expect(served.text.components(separatedBy: "HTTP/1.1").count == 2, "one response, no 408")
    }

    @Test func aClientThatHalfClosesGetsItsResponseThenTheClose() async throws {
        let served = Served()
        served.send("GET /setup/eureka_info HTTP/1.1\r\n\r\n")
        served.channel.writeInboundEnd()
        try await served.waitForResponse { $0.contains("Living Room") }
        served.loop.run()
        #expect(served.text.hasPrefix("HTTP/1.1 200 OK"))
        #expect(served.channel.isClosed)
    }

    @Test(arguments: [
        ("GET /\(String(repeating: "a", count: 10_000)) HTTP/1.1\r\n\r\n", "HTTP/1.1 414 URI Too Long"),
        (
            "GET / HTTP/1.1\r\n" + (0..<500).map { "X-\($0): \(String(repeating: "v", count: 60))\r\n" }.joined()
                + "\r\n",
            "HTTP/1.1 431 Request Header Fields Too Large"
        ),
        (
            String(decoding: [0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x0D, 0x0A, 0x0D, 0x0A] as [UInt8], as: UTF8.self),
            "HTTP/1.1 400 Bad Request"
        ),
    ])
    func anOversizedOrMalformedRequestGetsItsStatusAndTheOutputShuts(request: String, status: String) {
        let served = Served()
        served.send(request)
        served.loop.run()
        #expect(served.text.hasPrefix(status))
        #expect(served.channel.isOutputShut)
    }
}
