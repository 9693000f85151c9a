import CastTestSupport
import Testing

@testable import CastNetCore

@Suite struct HTTPRequestParserTests {
    private func parseAll(_ text: String, limits: HTTPRequestParser.Limits = .init()) throws -> [HTTPRequest] {
        var parser = HTTPRequestParser(limits: limits)
        parser.append(Array(text.utf8))
        var requests: [HTTPRequest] = []
        while let request = try parser.nextRequest() { requests.append(request) }
        return requests
    }

    private func parseError(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> HTTPParseError? {
        do {
            _ = try parseAll(text, limits: limits)
            return nil
        } catch {
            return error as? HTTPParseError
        }
    }

    @Test func parsesAGetRequest() throws {
        let requests = try parseAll(
            "GET /setup/eureka_info?params=name HTTP/1.1\r\nHost: 127.0.0.2:8008\r\nAccept:  */* \r\n\r\n"
        )
        let request = try #require(requests.first)
        #expect(requests.count == 1)
        #expect(request.method == .get)
        #expect(request.path == "/setup/eureka_info")
        #expect(request.query == "params=name")
        #expect(request.minorVersion == 1)
        #expect(request.headers["host"] == "127.0.0.2:8008")
        #expect(request.headers["Accept"] == "*/*")
        #expect(request.body.isEmpty)
        #expect(request.keepAlive)
    }

    @Test func parsesAPostBodyAndPipelinedRequests() throws {
        let text = "POST /a HTTP/1.1\r\nContent-Length: 5\r\n\r\nhelloGET /b HTTP/1.0\r\n\r\n"
        let requests = try parseAll(text)
        #expect(requests.map(\.path) == ["/a", "/b"])
        #expect(requests[0].body == Array("hello".utf8))
        #expect(requests[1].keepAlive == false)
    }

    @Test func sameRequestsWhenSplitAtEveryByte() throws {
        let text =
            "POST /a HTTP/1.1\r\nContent-Length: 3\r\nX: y\r\n\r\nabc\r\nGET /b?c=d HTTP/1.1\r\nConnection: close\r\n\r\n"
        let whole = try parseAll(text)
        var parser = HTTPRequestParser()
        var dripped: [HTTPRequest] = []
        for byte in text.utf8 {
            parser.append([byte])
            while let request = try parser.nextRequest() { dripped.append(request) }
        }
        #expect(dripped == whole)
        #expect(dripped.count == 2)
        #expect(dripped[1].keepAlive == false)
    }

    @Test func acceptsBareLineFeeds() throws {
        let requests = try parseAll("HEAD / HTTP/1.1\nHost: x\n\n")
        #expect(requests.first?.method == .head)
    }

    @Test func waitsForMoreBytes() throws {
        #expect(try parseAll("GET / HTTP/1.1\r\nHost: x\r\n").isEmpty)
        #expect(try parseAll("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc").isEmpty)
    }

    struct Malformed: Sendable, CustomTestStringConvertible {
        var text: String
        var code: HTTPParseError.Code
        var status: Int
        var testDescription: String { "\(code) (\(status))" }
    }

    @Test(arguments: [
        Malformed(text: "GET /\r\n\r\n", code: .malformedStartLine, status: 400),
        Malformed(text: "GET  / HTTP/1.1\r\n\r\n", code: .malformedStartLine, status: 400),
        Malformed(text: "G(T / HTTP/1.1\r\n\r\n", code: .malformedStartLine, status: 400),
        Malformed(text: "GET / HTTP/2.0\r\n\r\n", code: .unsupportedVersion, status: 505),
        Malformed(text: "GET / HTTQ/1.1\r\n\r\n", code: .malformedStartLine, status: 400),
        Malformed(text: "GET / HTTP/1.1\r\nNoColon\r\n\r\n", code: .malformedHeader, status: 400),
        Malformed(text: "GET / HTTP/1.1\r\nName : v\r\n\r\n", code: .malformedHeader, status: 400),
        Malformed(text: "GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", code: .malformedHeader, status: 400),
        Malformed(text: "GET / HTTP/1.1\r\nA: b\u{01}c\r\n\r\n", code: .malformedHeader, status: 400),
        Malformed(text: "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", code: .invalidContentLength, status: 400),
        Malformed(
            text: "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
            code: .invalidContentLength,
            status: 400
        ),
        Malformed(
            text: "POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n",
            code: .invalidContentLength,
            status: 400
        ),
        Malformed(text: "POST / HTTP/1.1\r\nContent-Length: 2000000\r\n\r\n", code: .bodyTooLarge, status: 413),
        Malformed(
            text: "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
            code: .unsupportedTransferEncoding,
            status: 501
        ),
    ])
    func rejectsMalformedRequests(_ vector: Malformed) {
        let error = parseError(vector.text)
        #expect(error?.code == vector.code)
        #expect(error?.status.code == vector.status)
    }

    @Test func longRequestLineIs414EvenBeforeItEnds() {
        let target = String(repeating: "a", count: 9000)
        #expect(parseError("GET /\(target) HTTP/1.1\r\n\r\n")?.status == .uriTooLong)
        #expect(parseError("GET /\(target)")?.status == .uriTooLong)
    }

    @Test func largeHeaderSectionIs431() {
        let big = (0..<400).map { "X-Header-\($0): \(String(repeating: "v", count: 40))\r\n" }.joined()
        #expect(parseError("GET / HTTP/1.1\r\n\(big)\r\n")?.status == .requestHeaderFieldsTooLarge)
        #expect(parseError("GET / HTTP/1.1\r\n\(big)")?.status == .requestHeaderFieldsTooLarge)
        var limits = HTTPRequestParser.Limits()
        limits.maximumHeaderCount = 3
        #expect(
            parseError("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n", limits: limits)?.code
                == .headersTooLarge
        )
    }

    @Test func errorsCarryTheStreamOffset() {
        let first = "GET /ok HTTP/1.1\r\n\r\n"
        let error = parseError(first + "BAD\r\n\r\n")
        #expect(error?.offset == first.utf8.count)
    }

    @Test func failedParserStaysFailed() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("GET / HTTP/9.9\r\n\r\n".utf8))
        #expect(throws: HTTPParseError.self) { try parser.nextRequest() }
        parser.append(Array("GET / HTTP/1.1\r\n\r\n".utf8))
        #expect(throws: HTTPParseError.self) { try parser.nextRequest() }
    }

    @Test func randomBytesNeverCrashOrGrowUnbounded() async throws {
        let grown = try await offThePool {
            var generator = SystemRandomNumberGenerator()
            var grown: [Int] = []
            for _ in 0..<300 {
                var parser = HTTPRequestParser()
                let count = Int.random(in: 0..<4000, using: &generator)
                let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
                parser.append(bytes)
                do {
                    while try parser.nextRequest() != nil {}
                } catch {}
                if parser.bufferedByteCount > count { grown.append(count) }
            }
            return grown
        }
        #expect(grown.isEmpty)
    }
}

@Suite struct HTTPByteRangeTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var header: String?
        var length: Int
        var expected: HTTPByteRange
        var testDescription: String { "\(header ?? "nil") of \(length)" }
    }

    @Test(arguments: [
        Vector(header: nil, length: 100, expected: .whole),
        Vector(header: "bytes=0-9", length: 100, expected: .partial(0...9)),
        Vector(header: "bytes=90-", length: 100, expected: .partial(90...99)),
        Vector(header: "bytes=90-500", length: 100, expected: .partial(90...99)),
        Vector(header: "bytes=-10", length: 100, expected: .partial(90...99)),
        Vector(header: "bytes=-500", length: 100, expected: .partial(0...99)),
        Vector(header: "Bytes = 5-5", length: 100, expected: .partial(5...5)),
        Vector(header: "bytes=100-", length: 100, expected: .unsatisfiable),
        Vector(header: "bytes=100-200", length: 100, expected: .unsatisfiable),
        Vector(header: "bytes=-0", length: 100, expected: .unsatisfiable),
        Vector(header: "bytes=0-0", length: 0, expected: .unsatisfiable),
        Vector(header: "bytes=9-1", length: 100, expected: .whole),
        Vector(header: "bytes=0-1,5-6", length: 100, expected: .whole),
        Vector(header: "items=0-1", length: 100, expected: .whole),
        Vector(header: "bytes=a-b", length: 100, expected: .whole),
        Vector(header: "bytes=99999999999999999999-", length: 100, expected: .whole),
        Vector(header: "bytes", length: 100, expected: .whole),
    ])
    func resolves(_ vector: Vector) {
        #expect(HTTPByteRange.resolve(vector.header, length: vector.length) == vector.expected)
    }
}

@Suite struct HTTPResponseParserTests {
    private func parse(_ text: String, method: HTTPMethod = .get, atEnd: Bool = false) throws -> HTTPClientResponse? {
        var parser = HTTPResponseParser(requestMethod: method)
        for byte in text.utf8 {
            parser.append([byte])
        }
        if let response = try parser.nextResponse() { return response }
        return atEnd ? try parser.finish() : nil
    }

    @Test func contentLengthBody() throws {
        let response = try #require(try parse("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc"))
        #expect(response.status == .ok)
        #expect(response.body == Array("abc".utf8))
    }

    @Test func chunkedBody() throws {
        let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nT: 1\r\n\r\n"
        #expect(try parse(text)?.body == Array("abcde".utf8))
    }

    @Test func closeDelimitedBody() throws {
        #expect(try parse("HTTP/1.0 200 OK\r\n\r\nuntil close") == nil)
        #expect(try parse("HTTP/1.0 200 OK\r\n\r\nuntil close", atEnd: true)?.body == Array("until close".utf8))
    }

    @Test func headResponseHasNoBody() throws {
        let response = try parse("HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n", method: .head)
        #expect(response?.body == [])
    }

    @Test func interimResponseIsSkipped() throws {
        let response = try parse("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n")
        #expect(response?.status == .noContent)
    }

    @Test(arguments: [
        "HTTP/1.1 2000 OK\r\n\r\n", "HTTP/3 200 OK\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n",
    ])
    func rejectsMalformedResponses(text: String) {
        #expect(throws: HTTPParseError.self) { try parse(text, atEnd: true) }
    }

    @Test func truncatedResponseFailsAtEnd() {
        #expect(throws: HTTPParseError.self) {
            try parse("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nabc", atEnd: true)
        }
    }
}
