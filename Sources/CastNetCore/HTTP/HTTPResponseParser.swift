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
    /// The most bytes of chunk extensions (`;name=value` after a chunk size) in one response,
    /// as Node's HTTP parser allows: they carry nothing the client uses, so a server cannot
    /// make it read and skip more than this beside the body.
    static let maximumChunkExtensionBytes = 16 * 1024
    /// The most trailer fields after the last chunk.
    static let maximumTrailerFields = 200
    private var buffer: [UInt8] = []
    private var index = 0
    private var head: (status: HTTPStatus, headers: HTTPHeaders)?
    private var mode = BodyMode.none
    private var chunkState = ChunkState.size
    private var body: [UInt8] = []
    private var chunksComplete = false
    /// Bytes of every head read so far (interim `1xx` heads included): together at most
    /// ``maximumHeadSize``, so endless `100 Continue` responses end the read.
    private var headBytes = 0
    /// Bytes after ``index`` already searched for the end of a head or a line without
    /// finding it: each byte is searched once, however the input is split.
    private var scanned = 0
    private var extensionBytes = 0
    private var trailerBytes = 0
    private var trailerFields = 0

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

    /// The bytes received and kept: the body so far, or the part of a head, a chunk-size
    /// line or a trailer not parsed yet.
    package var bufferedByteCount: Int { buffer.count - index + body.count }

    /// The response once complete, or `nil` when more bytes are needed.
    package mutating func nextResponse() throws(HTTPParseError) -> HTTPClientResponse? {
        while head == nil {
            guard let parsed = try nextHead() else { return nil }
            let status = try Self.status(parsed.startLine)
            index += parsed.length
            scanned = 0
            headBytes += parsed.length
            compact()
            if status.code >= 100 && status.code < 200 {
                // Interim response: skip it and wait for the final one, within the head limit.
                continue
            }
            head = (status, parsed.headers)
            mode = try bodyMode(status: status, headers: parsed.headers)
        }
        return try parseBody(atEnd: false)
    }

    /// The next head once its blank line arrived; `nil` before. The search for the blank
    /// line goes through new bytes only, and the head parser runs once per head.
    private mutating func nextHead() throws(HTTPParseError) -> HTTPHeadParser.Head? {
        // Blank lines before a head (allowed before a message) are dropped as they come and
        // count toward the limit.
        while scanned == 0, index < buffer.count, buffer[index] == 0x0D || buffer[index] == 0x0A {
            index += 1
            headBytes += 1
        }
        let budget = maximumHeadSize - headBytes
        guard budget > 0 else { throw headsTooLarge() }
        // A head ends at an LF followed by LF or CR LF; the last two bytes searched are
        // searched again, as they may begin that ending.
        var position = index + max(0, scanned - 2)
        var found = false
        while position < buffer.count {
            if buffer[position] == 0x0A, position + 1 < buffer.count {
                let next = buffer[position + 1]
                if next == 0x0A || (next == 0x0D && position + 2 < buffer.count && buffer[position + 2] == 0x0A) {
                    found = true
                    break
                }
            }
            position += 1
        }
        if !found { scanned = buffer.count - index }
        guard found || buffer.count - index > budget else { return nil }
        guard
            let parsed = try HTTPHeadParser.parse(
                buffer,
                from: index,
                streamOffset: headBytes,
                maximumStartLine: budget,
                maximumHeadSize: budget,
                maximumFieldCount: 200
            )
        else { throw headsTooLarge() }
        return parsed
    }

    private func headsTooLarge() -> HTTPParseError {
        HTTPParseError(
            .headersTooLarge,
            offset: headBytes,
            detail: "response heads (interim 1xx included) over \(maximumHeadSize) bytes"
        )
    }

    /// Drops the bytes already parsed from the front of the buffer, so that a long chunked
    /// body or many interim heads do not keep their framing in memory.
    private mutating func compact() {
        guard index >= 16 * 1024, index * 2 >= buffer.count else { return }
        buffer.removeSubrange(0..<index)
        index = 0
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

    /// How many body bytes have arrived (before the response is complete), counted without
    /// copying them.
    package var bodyByteCount: Int {
        guard head != nil else { return 0 }
        switch mode {
        case .none: return 0
        case .length, .untilClose: return buffer.count - index
        case .chunked: return body.count
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

    /// Advances through chunks; `true` once the last chunk and trailers are read. Each byte
    /// of a size line or a trailer is searched once (``scanned``), and parsed bytes are
    /// dropped from the buffer as they are passed.
    private mutating func parseChunks() throws(HTTPParseError) -> Bool {
        if chunksComplete { return true }
        defer { compact() }
        while true {
            switch chunkState {
            case .size:
                guard let lineEnd = nextLineEnd() else {
                    if buffer.count - index > 1024 {
                        throw HTTPParseError(.malformedChunk, offset: index, detail: "chunk size line over 1024 bytes")
                    }
                    return false
                }
                var line = buffer[index..<lineEnd]
                if line.last == 0x0D { line = line.dropLast() }
                let semicolon = line.firstIndex(of: 0x3B)
                let sizeBytes = line[line.startIndex..<(semicolon ?? line.endIndex)]
                if let semicolon {
                    extensionBytes += line.endIndex - semicolon
                    guard extensionBytes <= Self.maximumChunkExtensionBytes else {
                        throw HTTPParseError(
                            .malformedChunk,
                            offset: index,
                            detail: "chunk extensions over \(Self.maximumChunkExtensionBytes) bytes"
                        )
                    }
                }
                let sizeText = String(decoding: sizeBytes, as: UTF8.self).trimmingSpaces()
                guard !sizeText.isEmpty, sizeText.count <= 15, let size = Int(sizeText, radix: 16), size >= 0 else {
                    throw HTTPParseError(
                        .malformedChunk,
                        offset: index,
                        detail: "chunk size \"\(String(decoding: line.prefix(32), as: UTF8.self))\""
                    )
                }
                guard body.count + size <= maximumBodySize || (bodyPrefixLimit ?? .max) <= maximumBodySize else {
                    throw HTTPParseError(.bodyTooLarge, offset: index, detail: "body over \(maximumBodySize) bytes")
                }
                index = lineEnd + 1
                scanned = 0
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
                let limit = maximumHeadSize
                guard let lineEnd = nextLineEnd() else {
                    if trailerBytes + buffer.count - index > limit {
                        throw HTTPParseError(.headersTooLarge, offset: index, detail: "trailers over \(limit) bytes")
                    }
                    return false
                }
                let empty = lineEnd == index || (lineEnd == index + 1 && buffer[index] == 0x0D)
                trailerBytes += lineEnd + 1 - index
                index = lineEnd + 1
                scanned = 0
                if empty {
                    chunksComplete = true
                    return true
                }
                trailerFields += 1
                guard trailerBytes <= limit, trailerFields <= Self.maximumTrailerFields else {
                    throw HTTPParseError(
                        .headersTooLarge,
                        offset: index,
                        detail: "trailers over \(limit) bytes or \(Self.maximumTrailerFields) fields"
                    )
                }
            }
        }
    }

    /// The index of the next LF at or after ``index``, searching only bytes not searched
    /// before; `nil` when none arrived yet.
    private mutating func nextLineEnd() -> Int? {
        let start = index + scanned
        guard start < buffer.count else { return nil }
        if let end = buffer[start...].firstIndex(of: 0x0A) { return end }
        scanned = buffer.count - index
        return nil
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
