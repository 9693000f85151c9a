/// An incremental HTTP/1.x request parser: a value type with no I/O.
///
/// Append bytes as they arrive and call ``nextRequest()`` until it returns `nil` (more
/// bytes needed). Input split at any byte gives the same requests. Every limit is checked
/// before bytes are kept, so a client cannot make the parser hold more than the header
/// limit plus the body limit.
public struct HTTPRequestParser: Sendable {
    /// Size limits of a request.
    public struct Limits: Sendable {
        /// The longest request line (method, target, version); over it: 414.
        public var maximumRequestLineLength = 8 * 1024
        /// The largest header section, request line included; over it: 431.
        public var maximumHeaderSize = 16 * 1024
        /// The most header fields; over it: 431.
        public var maximumHeaderCount = 100
        /// The largest body; over it: 413.
        public var maximumBodySize = 1 << 20

        /// Creates the default limits.
        public init() {}
    }

    /// The limits in force.
    public let limits: Limits
    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var consumed = 0
    private var pendingHead: (request: HTTPRequest, bodyLength: Int)?
    private var failed: HTTPParseError?
    /// Where the search for the end of the head resumes: bytes before it hold no line end
    /// that completes a head, so a client sending one byte at a time costs linear work.
    private var scanIndex = 0

    /// Creates a parser.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Bytes received and not yet returned as part of a request.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Appends received bytes.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if readIndex > 0 && (readIndex == buffer.count || readIndex >= 4096) {
            consumed += readIndex
            buffer.removeFirst(readIndex)
            scanIndex = max(0, scanIndex - readIndex)
            readIndex = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Returns the next complete request, or `nil` when more bytes are needed.
    /// - Throws: ``HTTPParseError``; the parser then stays failed (answer and close).
    public mutating func nextRequest() throws(HTTPParseError) -> HTTPRequest? {
        if let failed { throw failed }
        do {
            return try parseNext()
        } catch {
            failed = error
            throw error
        }
    }

    private mutating func parseNext() throws(HTTPParseError) -> HTTPRequest? {
        if pendingHead == nil {
            let start = max(scanIndex, readIndex)
            let newLine = start < buffer.count && buffer[start...].contains(0x0A)
            let withinLimits =
                buffer.count - readIndex <= min(limits.maximumRequestLineLength, limits.maximumHeaderSize)
            if !newLine && withinLimits {
                scanIndex = buffer.count
                return nil
            }
            guard
                let head = try HTTPHeadParser.parse(
                    buffer,
                    from: readIndex,
                    streamOffset: consumed,
                    maximumStartLine: limits.maximumRequestLineLength,
                    maximumHeadSize: limits.maximumHeaderSize,
                    maximumFieldCount: limits.maximumHeaderCount
                )
            else {
                scanIndex = buffer.count
                return nil
            }
            let offset = consumed + readIndex
            let request = try makeRequest(head, offset: offset)
            if request.headers["Transfer-Encoding"] != nil {
                throw HTTPParseError(
                    .unsupportedTransferEncoding,
                    offset: offset,
                    detail: "Transfer-Encoding \(request.headers["Transfer-Encoding"] ?? "") in a request"
                )
            }
            let length = try HTTPHeadParser.contentLength(request.headers, offset: offset) ?? 0
            if length > limits.maximumBodySize {
                throw HTTPParseError(
                    .bodyTooLarge,
                    offset: offset,
                    detail: "body of \(length) bytes, limit \(limits.maximumBodySize)"
                )
            }
            readIndex += head.length
            scanIndex = readIndex
            pendingHead = (request, length)
        }
        guard let (request, length) = pendingHead else { return nil }
        guard buffer.count - readIndex >= length else { return nil }
        var complete = request
        complete.body = Array(buffer[readIndex..<readIndex + length])
        readIndex += length
        pendingHead = nil
        return complete
    }

    private func makeRequest(_ head: HTTPHeadParser.Head, offset: Int) throws(HTTPParseError) -> HTTPRequest {
        let parts = head.startLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw HTTPParseError(
                .malformedStartLine,
                offset: offset,
                detail: "request line \"\(head.startLine.prefix(64))\" is not METHOD TARGET VERSION"
            )
        }
        guard parts[0].utf8.allSatisfy(HTTPHeadParser.isTokenByte) else {
            throw HTTPParseError(
                .malformedStartLine,
                offset: offset,
                detail: "invalid method \"\(parts[0].prefix(16))\""
            )
        }
        guard parts[1].utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw HTTPParseError(.malformedStartLine, offset: offset, detail: "invalid character in target")
        }
        let minor = try HTTPHeadParser.minorVersion(parts[2], offset: offset)
        return HTTPRequest(
            method: HTTPMethod(rawValue: String(parts[0])),
            target: String(parts[1]),
            minorVersion: minor,
            headers: head.headers
        )
    }
}
