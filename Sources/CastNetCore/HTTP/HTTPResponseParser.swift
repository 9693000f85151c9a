/// An incremental HTTP/1.x response parser for the client: a value type with no I/O.
///
/// Handles `Content-Length`, chunked and close-delimited bodies, and responses that never
/// have a body (to `HEAD`, 1xx, 204, 304).
package struct HTTPResponseParser: Sendable {
    private enum BodyMode {
        case none
        case length(Int)
        case chunked
        case untilClose
    }

    private enum ChunkState {
        case size
        case data(Int)
        case dataEnd
        case trailers
    }

    package let maximumHeadSize: Int
    package let maximumBodySize: Int
    package let requestMethod: HTTPMethod
    /// Once the body holds this many bytes, the response is returned as a partial one.
    package let bodyPrefixLimit: Int?
    private var buffer: [UInt8] = []
    private var index = 0
    private var head: (status: HTTPStatus, headers: HTTPHeaders)?
    private var mode = BodyMode.none
    private var chunkState = ChunkState.size
    private var body: [UInt8] = []
    private var chunksComplete = false

    package init(
        requestMethod: HTTPMethod,
        maximumHeadSize: Int = 64 * 1024,
        maximumBodySize: Int = 8 << 20,
        bodyPrefixLimit: Int? = nil
    ) {
        self.requestMethod = requestMethod
        self.bodyPrefixLimit = bodyPrefixLimit.map { max(0, $0) }
        self.maximumHeadSize = maximumHeadSize
        self.maximumBodySize = maximumBodySize
    }

    package mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The response once complete, or `nil` when more bytes are needed.
    package mutating func nextResponse() throws(HTTPParseError) -> HTTPClientResponse? {
        if head == nil {
            guard
                let parsed = try HTTPHeadParser.parse(
                    buffer,
                    from: index,
                    streamOffset: 0,
                    maximumStartLine: maximumHeadSize,
                    maximumHeadSize: maximumHeadSize,
                    maximumFieldCount: 200
                )
            else { return nil }
            let status = try Self.status(parsed.startLine)
            index += parsed.length
            if status.code >= 100 && status.code < 200 {
                // Interim response: skip it and wait for the final one.
                return try nextResponse()
            }
            head = (status, parsed.headers)
            mode = try bodyMode(status: status, headers: parsed.headers)
        }
        return try parseBody(atEnd: false)
    }

    /// Called when the server closed the connection: completes a close-delimited body.
    /// - Throws: when the response is incomplete.
    package mutating func finish() throws(HTTPParseError) -> HTTPClientResponse {
        if let response = try nextResponse() { return response }
        if head != nil, case .untilClose = mode, let response = try parseBody(atEnd: true) { return response }
        throw HTTPParseError(
            .malformedStartLine,
            offset: buffer.count,
            detail: "the connection closed before the response was complete"
        )
    }

    private func bodyMode(status: HTTPStatus, headers: HTTPHeaders) throws(HTTPParseError) -> BodyMode {
        if requestMethod == .head || status.code == 204 || status.code == 304 { return .none }
        if let coding = headers["Transfer-Encoding"] {
            guard coding.lowercased().split(separator: ",").last?.trimmingSpaces() == "chunked" else {
                throw HTTPParseError(.unsupportedTransferEncoding, offset: 0, detail: "Transfer-Encoding \(coding)")
            }
            return .chunked
        }
        if let length = try HTTPHeadParser.contentLength(headers, offset: 0) {
            guard length <= maximumBodySize || (bodyPrefixLimit ?? .max) <= maximumBodySize else {
                throw HTTPParseError(
                    .bodyTooLarge,
                    offset: 0,
                    detail: "body of \(length) bytes, limit \(maximumBodySize)"
                )
            }
            return .length(length)
        }
        return .untilClose
    }

    private mutating func parseBody(atEnd: Bool) throws(HTTPParseError) -> HTTPClientResponse? {
        guard let head else { return nil }
        switch mode {
        case .none:
            return HTTPClientResponse(status: head.status, headers: head.headers, body: [])
        case .length(let length):
            if let limit = bodyPrefixLimit, limit < length, buffer.count - index >= limit {
                return partial(Array(buffer[index..<index + limit]), head: head)
            }
            guard buffer.count - index >= length else { return nil }
            return HTTPClientResponse(
                status: head.status,
                headers: head.headers,
                body: Array(buffer[index..<index + length])
            )
        case .untilClose:
            if let limit = bodyPrefixLimit, buffer.count - index >= limit, !(atEnd && buffer.count - index == limit) {
                return partial(Array(buffer[index..<index + limit]), head: head)
            }
            guard buffer.count - index <= maximumBodySize else {
                throw HTTPParseError(.bodyTooLarge, offset: buffer.count, detail: "body over \(maximumBodySize) bytes")
            }
            guard atEnd else { return nil }
            return HTTPClientResponse(status: head.status, headers: head.headers, body: Array(buffer[index...]))
        case .chunked:
            let complete = try parseChunks()
            if let limit = bodyPrefixLimit, body.count > limit || (!complete && body.count == limit) {
                return partial(Array(body.prefix(limit)), head: head)
            }
            guard complete else { return nil }
            return HTTPClientResponse(status: head.status, headers: head.headers, body: body)
        }
    }

    /// The body bytes read so far (before the response is complete), for a caller that may
    /// decide they are enough.
    package var bodySoFar: [UInt8]? {
        guard head != nil else { return nil }
        switch mode {
        case .none: return nil
        case .length, .untilClose: return Array(buffer[index...])
        case .chunked: return body
        }
    }

    /// Takes the body bytes received since the last call (after the head was parsed), for a
    /// caller that consumes a long body as it arrives instead of holding it.
    /// - Returns: the bytes, and whether the body is complete.
    package mutating func takeBodyBytes() throws(HTTPParseError) -> (bytes: [UInt8], isComplete: Bool) {
        guard head != nil else { return ([], false) }
        switch mode {
        case .none:
            return ([], true)
        case .length(let remaining):
            let count = min(remaining, buffer.count - index)
            let bytes = Array(buffer[index..<index + count])
            buffer.removeSubrange(0..<index + count)
            index = 0
            mode = .length(remaining - count)
            return (bytes, remaining == count)
        case .untilClose:
            let bytes = Array(buffer[index...])
            buffer.removeAll(keepingCapacity: true)
            index = 0
            return (bytes, false)
        case .chunked:
            let complete = try parseChunks()
            let bytes = body
            body.removeAll(keepingCapacity: true)
            buffer.removeSubrange(0..<index)
            index = 0
            return (bytes, complete)
        }
    }

    /// The body read so far as a partial response.
    package func partialResponse() -> HTTPClientResponse? {
        guard let head, let prefix = bodySoFar else { return nil }
        return partial(prefix, head: head)
    }

    private func partial(_ prefix: [UInt8], head: (status: HTTPStatus, headers: HTTPHeaders)) -> HTTPClientResponse {
        HTTPClientResponse(status: head.status, headers: head.headers, body: prefix, isPartial: true)
    }

    /// Advances through chunks; `true` once the last chunk and trailers are read.
    private mutating func parseChunks() throws(HTTPParseError) -> Bool {
        if chunksComplete { return true }
        while true {
            switch chunkState {
            case .size:
                guard let lineEnd = buffer[index...].firstIndex(of: 0x0A) else {
                    if buffer.count - index > 1024 {
                        throw HTTPParseError(.malformedChunk, offset: index, detail: "chunk size line over 1024 bytes")
                    }
                    return false
                }
                var line = String(decoding: buffer[index..<lineEnd], as: UTF8.self)
                if line.hasSuffix("\r") { line.removeLast() }
                let sizeText = line.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces() } ?? ""
                guard !sizeText.isEmpty, sizeText.count <= 15, let size = Int(sizeText, radix: 16), size >= 0 else {
                    throw HTTPParseError(.malformedChunk, offset: index, detail: "chunk size \"\(line.prefix(32))\"")
                }
                guard body.count + size <= maximumBodySize || (bodyPrefixLimit ?? .max) <= maximumBodySize else {
                    throw HTTPParseError(.bodyTooLarge, offset: index, detail: "body over \(maximumBodySize) bytes")
                }
                index = lineEnd + 1
                chunkState = size == 0 ? .trailers : .data(size)
            case .data(let remaining):
                // Taken as it arrives, so that a prefix limit ends the read inside a long chunk.
                let available = min(remaining, buffer.count - index)
                guard available > 0 else { return false }
                body.append(contentsOf: buffer[index..<index + available])
                index += available
                guard available == remaining else {
                    chunkState = .data(remaining - available)
                    return false
                }
                chunkState = .dataEnd
            case .dataEnd:
                guard buffer.count - index >= 1 else { return false }
                if buffer[index] == 0x0D {
                    guard buffer.count - index >= 2 else { return false }
                    index += 1
                }
                guard buffer[index] == 0x0A else {
                    throw HTTPParseError(.malformedChunk, offset: index, detail: "chunk data not followed by CRLF")
                }
                index += 1
                chunkState = .size
            case .trailers:
                guard let lineEnd = buffer[index...].firstIndex(of: 0x0A) else { return false }
                let empty = lineEnd == index || (lineEnd == index + 1 && buffer[index] == 0x0D)
                index = lineEnd + 1
                if empty {
                    chunksComplete = true
                    return true
                }
            }
        }
    }

    private static func status(_ line: String) throws(HTTPParseError) -> HTTPStatus {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2 else {
            throw HTTPParseError(.malformedStartLine, offset: 0, detail: "status line \"\(line.prefix(64))\"")
        }
        _ = try HTTPHeadParser.minorVersion(parts[0], offset: 0)
        guard parts[1].count == 3, let code = Int(parts[1]), code >= 100 else {
            throw HTTPParseError(.malformedStartLine, offset: 0, detail: "status code \"\(parts[1].prefix(8))\"")
        }
        return HTTPStatus(code: code, reasonPhrase: parts.count > 2 ? String(parts[2]) : "")
    }
}
