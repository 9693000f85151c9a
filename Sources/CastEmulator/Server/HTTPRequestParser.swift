import Foundation

/// Parses HTTP/1.1 requests from bytes that arrive in pieces, within fixed size limits.
///
/// A request is complete once its head (`\r\n\r\n`) and `Content-Length` body bytes have
/// arrived. Chunked bodies are not accepted (the setup endpoints take small JSON bodies).
struct HTTPRequestParser: Sendable {
    /// The largest request head accepted.
    let maximumHeadSize: Int
    /// The largest body accepted.
    let maximumBodySize: Int
    private var buffer: [UInt8] = []

    init(maximumHeadSize: Int = 16 * 1024, maximumBodySize: Int = 64 * 1024) {
        self.maximumHeadSize = maximumHeadSize
        self.maximumBodySize = maximumBodySize
    }

    /// Appends received bytes.
    mutating func append(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
    }

    /// Returns the next complete request, or `nil` when more bytes are needed.
    /// - Throws: ``SetupHTTPError`` for a malformed or oversized request.
    mutating func nextRequest() throws(SetupHTTPError) -> HTTPRequest? {
        guard let headEnd = Self.find([13, 10, 13, 10], in: buffer) else {
            if buffer.count > maximumHeadSize {
                throw SetupHTTPError(code: .headTooLarge, detail: "no end of head within \(maximumHeadSize) bytes")
            }
            return nil
        }
        guard headEnd <= maximumHeadSize else {
            throw SetupHTTPError(code: .headTooLarge, detail: "head of \(headEnd) bytes, limit \(maximumHeadSize)")
        }
        let headText = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, !requestLine[0].isEmpty, requestLine[1].hasPrefix("/") || requestLine[1] == "*",
            requestLine[2].hasPrefix("HTTP/1.")
        else {
            throw SetupHTTPError(code: .malformedRequestLine, detail: "request line \"\(lines.first ?? "")\"")
        }
        var headers: [(name: String, value: String)] = []
        for (index, line) in lines.enumerated() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw SetupHTTPError(code: .malformedHeader, detail: "header line \(index + 1) has no name")
            }
            let name = String(line[..<colon])
            guard !name.contains(" ") else {
                throw SetupHTTPError(code: .malformedHeader, detail: "header name \"\(name)\" contains a space")
            }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append((name, value))
        }
        var request = HTTPRequest(
            method: String(requestLine[0]),
            target: String(requestLine[1]),
            headers: headers,
            body: []
        )
        if let encoding = request.header("Transfer-Encoding"), encoding.lowercased() != "identity" {
            throw SetupHTTPError(code: .unsupportedTransferEncoding, detail: "Transfer-Encoding \(encoding)")
        }
        var bodyLength = 0
        if let lengthText = request.header("Content-Length") {
            guard let length = Int(lengthText), length >= 0 else {
                throw SetupHTTPError(code: .malformedHeader, detail: "Content-Length \"\(lengthText)\"")
            }
            guard length <= maximumBodySize else {
                throw SetupHTTPError(code: .bodyTooLarge, detail: "body of \(length) bytes, limit \(maximumBodySize)")
            }
            bodyLength = length
        }
        let bodyStart = headEnd + 4
        guard buffer.count >= bodyStart + bodyLength else { return nil }
        request.body = Array(buffer[bodyStart..<(bodyStart + bodyLength)])
        buffer.removeFirst(bodyStart + bodyLength)
        return request
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        for start in 0...(bytes.count - pattern.count) where bytes[start] == pattern[0] {
            if bytes[start..<(start + pattern.count)].elementsEqual(pattern) { return start }
        }
        return nil
    }
}
