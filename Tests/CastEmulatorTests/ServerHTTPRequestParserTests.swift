import Testing

@testable import CastEmulator

@Suite struct ServerHTTPRequestParserTests {
    @Test func parsesARequestWithQuery() throws {
        var parser = HTTPRequestParser()
        parser.append(
            Array(
                "GET /setup/eureka_info?params=device_info,name&x=a%20b+c HTTP/1.1\r\nHost: 127.0.0.2:8008\r\nAccept: */*\r\n\r\n"
                    .utf8
            )
        )
        let request = try #require(try parser.nextRequest())
        #expect(request.method == "GET")
        #expect(request.path == "/setup/eureka_info")
        #expect(request.queryItems == ["params": "device_info,name", "x": "a b c"])
        #expect(request.header("host") == "127.0.0.2:8008")
        #expect(request.body.isEmpty)
        #expect(try parser.nextRequest() == nil)
    }

    @Test func acceptsBytesOneAtATime() throws {
        let text = "POST /control/faults HTTP/1.1\r\nContent-Length: 17\r\n\r\n{\"restart\":true}\n"
        var parser = HTTPRequestParser()
        var result: HTTPRequest?
        for (index, byte) in text.utf8.enumerated() {
            #expect(result == nil, "request complete early, at byte \(index)")
            parser.append([byte])
            result = try parser.nextRequest()
        }
        let request = try #require(result)
        #expect(request.method == "POST")
        #expect(String(decoding: request.body, as: UTF8.self) == "{\"restart\":true}\n")
    }

    @Test(arguments: [
        ("GARBAGE\r\n\r\n", SetupHTTPError.Code.malformedRequestLine),
        ("GET noslash HTTP/1.1\r\n\r\n", .malformedRequestLine),
        ("GET / HTTP/2\r\n\r\n", .malformedRequestLine),
        ("GET / HTTP/1.1\r\nNoColonHere\r\n\r\n", .malformedHeader),
        ("GET / HTTP/1.1\r\n: empty name\r\n\r\n", .malformedHeader),
        ("POST / HTTP/1.1\r\nContent-Length: -3\r\n\r\n", .malformedHeader),
        ("POST / HTTP/1.1\r\nContent-Length: many\r\n\r\n", .malformedHeader),
        ("POST / HTTP/1.1\r\nContent-Length: 70000\r\n\r\n", .bodyTooLarge),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", .unsupportedTransferEncoding),
    ])
    func rejectsMalformedRequests(text: String, code: SetupHTTPError.Code) {
        var parser = HTTPRequestParser()
        parser.append(Array(text.utf8))
        #expect {
            _ = try parser.nextRequest()
        } throws: { error in
            (error as? SetupHTTPError)?.code == code
        }
    }

    @Test func rejectsAnEndlessHead() {
        var parser = HTTPRequestParser(maximumHeadSize: 1024)
        parser.append(Array("GET / HTTP/1.1\r\n".utf8) + Array(repeating: UInt8(ascii: "a"), count: 2000))
        #expect(throws: SetupHTTPError(code: .headTooLarge, detail: "")) { try parser.nextRequest() }
    }

    @Test func serializesResponses() {
        let response = HTTPResponse.json(Array("{}".utf8))
        let text = String(decoding: response.serialized(), as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.contains("Content-Type: application/json\r\n"))
        #expect(text.contains("Content-Length: 2\r\n"))
        #expect(text.hasSuffix("\r\n\r\n{}"))
        let head = String(decoding: response.serialized(includeBody: false), as: UTF8.self)
        #expect(head.hasSuffix("\r\n\r\n"))
        #expect(head.contains("Content-Length: 2\r\n"))
    }
}
