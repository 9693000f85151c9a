import Testing

@testable import CastNetCore

/// The response parser's partial reads: a body prefix limit (the start of a large or endless
/// body) and bodies taken piece by piece as they arrive (`HTTPClient.follow`).
@Suite struct HTTPResponseParserPrefixTests {
    static let length = "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nabcdef"
    static let close = "HTTP/1.0 200 OK\r\n\r\nabcdef"
    static let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n3\r\ndef\r\n0\r\n\r\n"

    /// Feeds `text` one byte at a time; returns the first response.
    static func firstResponse(_ text: String, limit: Int?, maximum: Int = 8 << 20) throws -> HTTPClientResponse? {
        var parser = HTTPResponseParser(requestMethod: .get, maximumBodySize: maximum, bodyPrefixLimit: limit)
        for byte in text.utf8 {
            parser.append([byte])
            if let response = try parser.nextResponse() { return response }
        }
        return try parser.finish()
    }

    @Test(arguments: [length, close, chunked])
    func aPrefixLimitEndsTheReadEarly(text: String) throws {
        let response = try #require(try Self.firstResponse(text, limit: 4))
        #expect(response.body == Array("abcd".utf8))
        #expect(response.isPartial)
    }

    @Test(arguments: [length, chunked])
    func aBodyWithinTheLimitIsWhole(text: String) throws {
        let response = try #require(try Self.firstResponse(text, limit: 7))
        #expect(response.body == Array("abcdef".utf8))
        #expect(!response.isPartial)
    }

    @Test func aCloseDelimitedBodyReachingTheLimitIsPartialWhileOpen() throws {
        var parser = HTTPResponseParser(requestMethod: .get, bodyPrefixLimit: 6)
        parser.append(Array("HTTP/1.0 200 OK\r\n\r\nabcde".utf8))
        #expect(try parser.nextResponse() == nil)
        parser.append(Array("f".utf8))
        // Six bytes and the connection still open: more may come, so the read ends as partial.
        #expect(try parser.nextResponse()?.isPartial == true)
    }

    @Test func aPrefixAllowsADeclaredBodyOverTheLimit() throws {
        let text = "HTTP/1.1 200 OK\r\nContent-Length: 99999999\r\n\r\nabcdef"
        #expect(throws: HTTPParseError.self) { try Self.firstResponse(text, limit: nil, maximum: 1000) }
        #expect(try Self.firstResponse(text, limit: 3, maximum: 1000)?.body == Array("abc".utf8))
    }

    @Test func aLimitOfZeroReturnsTheHeadAlone() throws {
        for text in [Self.length, Self.close, Self.chunked] {
            let response = try #require(try Self.firstResponse(text, limit: 0))
            #expect(response.status == .ok)
            #expect(response.isPartial)
            #expect(response.body.isEmpty)
        }
    }

    /// The body taken as it arrives, whatever the transfer coding, with the end reported once.
    @Test(arguments: [(length, true), (chunked, true), (close, false)])
    func bodiesAreTakenPieceByPiece(text: String, ends: Bool) throws {
        var parser = HTTPResponseParser(requestMethod: .get, bodyPrefixLimit: 0)
        var head = false
        var body: [UInt8] = []
        var complete = false
        for byte in text.utf8 {
            parser.append([byte])
            if !head {
                head = try parser.nextResponse() != nil
                if !head { continue }
            }
            let (piece, isComplete) = try parser.takeBodyBytes()
            #expect(!complete || piece.isEmpty)
            body += piece
            complete = complete || isComplete
        }
        #expect(body == Array("abcdef".utf8))
        #expect(complete == ends)
    }

    @Test func aBrokenChunkIsAnErrorWhenTakenPieceByPiece() throws {
        var parser = HTTPResponseParser(requestMethod: .get, bodyPrefixLimit: 0)
        parser.append(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
        #expect(try parser.nextResponse() != nil)
        parser.append(Array("zz\r\n".utf8))
        #expect(throws: HTTPParseError.self) { try parser.takeBodyBytes() }
    }
}
