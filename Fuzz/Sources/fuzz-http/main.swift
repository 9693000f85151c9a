// Fuzzes HTTPRequestParser with the input as the bytes a client sends on one connection.
//
// Properties: the stream gives the same requests and the same error (code and offset) whether
// it arrives at once or in chunks of any size; an error is sticky; every request written back
// in canonical form parses to an equal request; a parser with small limits never holds more
// than its header limit plus its body limit while it waits for more bytes.

import CastNetCore
import FuzzSupport

private struct Outcome: Equatable {
    var requests: [HTTPRequest] = []
    var error: HTTPParseError?
    var errorOffset: Int?
}

private var smallLimits: HTTPRequestParser.Limits {
    var limits = HTTPRequestParser.Limits()
    limits.maximumRequestLineLength = 64
    limits.maximumHeaderSize = 256
    limits.maximumHeaderCount = 8
    limits.maximumBodySize = 512
    return limits
}

/// Takes every complete request; returns false once the parser failed.
private func drain(_ parser: inout HTTPRequestParser, into outcome: inout Outcome) -> Bool {
    while true {
        do {
            guard let request = try parser.nextRequest() else {
                let bound = parser.limits.maximumHeaderSize + parser.limits.maximumBodySize
                FuzzProperty.require(
                    parser.bufferedByteCount <= bound,
                    "the parser holds \(parser.bufferedByteCount) bytes, over its limits (\(bound))"
                )
                return true
            }
            outcome.requests.append(request)
        } catch {
            outcome.error = error
            outcome.errorOffset = error.offset
            do {
                _ = try parser.nextRequest()
                FuzzProperty.fail("the parser recovered after \(error)")
            } catch let again {
                FuzzProperty.require(again == error && again.offset == error.offset, "a second call threw \(again)")
            }
            return false
        }
    }
}

private func parse(_ bytes: [UInt8], limits: HTTPRequestParser.Limits, chunked: Bool) -> Outcome {
    var parser = HTTPRequestParser(limits: limits)
    var outcome = Outcome()
    var sizes = ChunkSizes(seed: bytes)
    var index = 0
    repeat {
        let end = chunked ? min(bytes.count, index + sizes.next(limit: max(1, bytes.count - index))) : bytes.count
        parser.append(bytes[index..<end])
        index = end
        guard drain(&parser, into: &outcome) else { return outcome }
    } while index < bytes.count
    return outcome
}

/// The request in canonical form: request line, one line per field, blank line, body.
private func serialize(_ request: HTTPRequest) -> [UInt8] {
    var text = "\(request.method.rawValue) \(request.target) HTTP/1.\(request.minorVersion)\r\n"
    for (name, value) in request.headers {
        text += "\(name): \(value)\r\n"
    }
    text += "\r\n"
    return Array(text.utf8) + request.body
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.run(start, count) { bytes in
        let whole = parse(bytes, limits: HTTPRequestParser.Limits(), chunked: false)
        let chunked = parse(bytes, limits: HTTPRequestParser.Limits(), chunked: true)
        FuzzProperty.require(whole == chunked, "chunked parsing differs: \(whole) / \(chunked)")
        _ = parse(bytes, limits: smallLimits, chunked: true)

        for request in whole.requests {
            let again = parse(serialize(request), limits: HTTPRequestParser.Limits(), chunked: false)
            FuzzProperty.require(
                again.error == nil && again.requests == [request],
                "a request written back does not parse to itself: \(request) -> \(again)"
            )
        }
    }
}
