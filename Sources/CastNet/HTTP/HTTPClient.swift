public import CastNetCore
import CastSync
public import CastTime

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A small HTTP/1.1 client on CastNet's TCP and TLS, one connection per request.
///
/// It exists because a Cast sender must read `https://DEVICE:8443/setup/eureka_info` from
/// a device with a self-signed certificate, which `URLSession` on Linux cannot accept.
/// By default, like the TLS client, it accepts any server certificate; set ``tls`` to
/// verify against roots.
public struct HTTPClient: Sendable {
    /// TLS settings for `https` URLs.
    public var tls = TLSClientConfiguration()
    /// The limit for the whole exchange: connecting, sending and receiving.
    public var timeout: Duration = .seconds(10)
    /// The largest body accepted.
    public var maximumBodySize = 8 << 20
    /// When set, the client stops reading as soon as the body holds this many bytes, closes
    /// the connection and returns them as a partial response (``HTTPClientResponse/isPartial``):
    /// for reading the start of a large or never-ending resource (a live stream) without
    /// waiting for its end. A body no longer than the limit is returned whole.
    public var bodyPrefixLimit: Int?
    /// When set, called with the body read so far each time more of it arrives (before it is
    /// complete); `true` ends the read there, as a partial response. For a caller that knows
    /// when it has read enough of a stream (a media header) before any size limit.
    public var isBodyPrefixEnough: (@Sendable ([UInt8]) -> Bool)?
    /// The clock for the timeout.
    public var clock: any CastClock = SystemCastClock()
    /// The loops to run on.
    public var group: EventLoopGroup = .shared

    /// Creates a client with the default settings.
    public init() {}

    /// Sends a `GET` for `url` (`http://` or `https://`).
    /// - Throws: ``TCPError``, ``TLSError`` or ``HTTPParseError``; ``TCPError/Code/timedOut``
    ///   when the exchange outlasts ``timeout``.
    public func get(_ url: String, headers: HTTPHeaders = [:]) async throws -> HTTPClientResponse {
        try await execute(.get, url: url, headers: headers)
    }

    /// Sends a request and reads the whole response. Cancelling the calling task closes the
    /// connection at once, a connection attempt or TLS handshake still under way included.
    /// Interim `1xx` answers count toward the 64 KiB head limit, chunk extensions are capped
    /// at 16 KiB and trailers at 64 KiB, and every byte is parsed once.
    /// - Throws: ``TCPError``, ``TLSError`` or ``HTTPParseError``; `CancellationError` when
    ///   the task was cancelled.
    public func execute(
        _ method: HTTPMethod,
        url: String,
        headers: HTTPHeaders = [:],
        body: [UInt8] = []
    ) async throws -> HTTPClientResponse {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else {
            throw TCPError(code: .invalidAddress, operation: "parse URL", address: url)
        }
        let secure = scheme == "https"
        let port = components.port ?? (secure ? 443 : 80)
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?\(query)" }

        var requestHeaders = headers
        if requestHeaders["Host"] == nil {
            let hostField = host.contains(":") ? "[\(host)]" : host
            let defaultPort = secure ? 443 : 80
            requestHeaders.add(name: "Host", value: port == defaultPort ? hostField : "\(hostField):\(port)")
        }
        requestHeaders.replaceOrAdd(name: "Connection", value: "close")
        if !body.isEmpty || method == .post || method == .put {
            requestHeaders.replaceOrAdd(name: "Content-Length", value: String(body.count))
        }
        let head = PreparedHTTPResponse.serializeRequestHead(method: method, target: target, headers: requestHeaders)

        let expired = Locked(false)
        let connectionBox = Locked<TCPConnection?>(nil)
        let timer = clock.schedule(after: timeout) {
            expired.withLock { $0 = true }
            connectionBox.withLock { $0 }?.close()
        }
        defer { timer.cancel() }
        let cancelled = Locked(false)
        return try await withTaskCancellationHandler {
            try await exchange(
                url: url,
                host: host,
                port: port,
                secure: secure,
                request: head + body,
                method: method,
                expired: expired,
                cancelled: cancelled,
                connectionBox: connectionBox
            )
        } onCancel: {
            cancelled.withLock { $0 = true }
            connectionBox.withLock { $0 }?.close()
        }
    }

    /// Connects, sends `request` and reads the response; `connectionBox` receives the
    /// connection so that the timeout and cancellation can close it.
    private func exchange(
        url: String,
        host: String,
        port: Int,
        secure: Bool,
        request: [UInt8],
        method: HTTPMethod,
        expired: Locked<Bool>,
        cancelled: Locked<Bool>,
        connectionBox: Locked<TCPConnection?>
    ) async throws -> HTTPClientResponse {
        do {
            var tlsConfiguration = tls
            if secure && tlsConfiguration.serverName == nil && (try? SocketAddress(ipAddress: host, port: 0)) == nil {
                tlsConfiguration.serverName = host
            }
            let connection = try await TCPConnection.connect(
                host: host,
                port: port,
                tls: secure ? tlsConfiguration : nil,
                timeout: timeout,
                clock: clock,
                group: group
            )
            connectionBox.withLock { $0 = connection }
            defer { connection.close() }
            if cancelled.withLock({ $0 }) { throw CancellationError() }
            if expired.withLock({ $0 }) { throw TCPError(code: .timedOut, operation: "HTTP request", address: url) }
            try await connection.send(request)
            var parser = HTTPResponseParser(
                requestMethod: method,
                maximumBodySize: maximumBodySize,
                bodyPrefixLimit: bodyPrefixLimit
            )
            // The prefix check reads the whole body so far: it runs each time the body grew by
            // half since the last check (and 1 KiB at least), so a body arriving a byte at a
            // time costs linear work, not a check per byte.
            var checkedPrefix = 0
            while true {
                guard let bytes = try await connection.receive() else {
                    if cancelled.withLock({ $0 }) { throw CancellationError() }
                    if expired.withLock({ $0 }) {
                        throw TCPError(code: .timedOut, operation: "HTTP request", address: url)
                    }
                    return try parser.finish()
                }
                parser.append(bytes)
                if let response = try parser.nextResponse() { return response }
                let received = parser.bodyByteCount
                if let isBodyPrefixEnough, received > 0, received >= checkedPrefix + max(1024, checkedPrefix / 2) {
                    checkedPrefix = received
                    if let prefix = parser.bodySoFar, isBodyPrefixEnough(prefix), let partial = parser.partialResponse()
                    {
                        return partial
                    }
                }
            }
        } catch {
            if cancelled.withLock({ $0 }) { throw CancellationError() }
            if expired.withLock({ $0 }) { throw TCPError(code: .timedOut, operation: "HTTP request", address: url) }
            throw error
        }
    }
}

extension PreparedHTTPResponse {
    static func serializeRequestHead(method: HTTPMethod, target: String, headers: HTTPHeaders) -> [UInt8] {
        var text = "\(method.rawValue) \(target) HTTP/1.1\r\n"
        for field in headers { text += "\(field.name): \(field.value)\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }
}

extension HTTPClient {
    /// How a ``HTTPClient/follow(_:headers:checkInterval:shouldContinue:)`` read ended.
    public struct FollowOutcome: Sendable, Equatable {
        /// The response status.
        public var status: HTTPStatus
        /// How many bytes arrived after the response head.
        public var bodyBytes: Int
        /// Whether the server ended the body (closed the connection); `false` when
        /// `shouldContinue` stopped the read.
        public var serverEnded: Bool
    }

    /// Sends a `GET` for `url` and reads the response body to its end, handing each piece to
    /// `onBody` as it arrives and keeping none of it: a player consuming a live stream. A
    /// never-ending body costs no memory. ``timeout`` bounds connecting and the response
    /// head, and `idleTimeout` each wait for more of the body: a server that sends nothing for
    /// that long ends the read (``TCPError/Code/timedOut``). The body may last as long as
    /// `shouldContinue` says. Cancelling the calling task closes the connection at once.
    /// - Parameters:
    ///   - checkInterval: how often `shouldContinue` is asked, whether or not bytes arrive.
    ///   - idleTimeout: the longest wait for more of the body once the head arrived.
    ///   - shouldContinue: `false` ends the read (the connection is closed).
    ///   - onBody: receives the body (transfer coding removed) piece by piece.
    /// - Throws: ``TCPError``, ``TLSError`` or ``HTTPParseError`` for a failed connection
    ///   or a malformed response; `CancellationError` when the task was cancelled.
    public func follow(
        _ url: String,
        headers: HTTPHeaders = [:],
        checkInterval: Duration = .seconds(1),
        idleTimeout: Duration = .seconds(60),
        shouldContinue: @escaping @Sendable () -> Bool,
        onBody: ([UInt8]) -> Void = { _ in }
    ) async throws -> FollowOutcome {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else {
            throw TCPError(code: .invalidAddress, operation: "parse URL", address: url)
        }
        let secure = scheme == "https"
        let port = components.port ?? (secure ? 443 : 80)
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?\(query)" }
        var requestHeaders = headers
        if requestHeaders["Host"] == nil {
            let hostField = host.contains(":") ? "[\(host)]" : host
            requestHeaders.add(name: "Host", value: port == (secure ? 443 : 80) ? hostField : "\(hostField):\(port)")
        }
        requestHeaders.replaceOrAdd(name: "Connection", value: "close")
        let head = PreparedHTTPResponse.serializeRequestHead(method: .get, target: target, headers: requestHeaders)
        var tlsConfiguration = tls
        if secure && tlsConfiguration.serverName == nil && (try? SocketAddress(ipAddress: host, port: 0)) == nil {
            tlsConfiguration.serverName = host
        }
        let connectionBox = Locked<TCPConnection?>(nil)
        let cancelled = Locked(false)
        return try await withTaskCancellationHandler {
            let connection = try await TCPConnection.connect(
                host: host,
                port: port,
                tls: secure ? tlsConfiguration : nil,
                timeout: timeout,
                clock: clock,
                group: group
            )
            connectionBox.withLock { $0 = connection }
            defer { connection.close() }
            if cancelled.withLock({ $0 }) { throw CancellationError() }
            return try await followBody(
                url: url,
                connection: connection,
                request: head,
                checkInterval: checkInterval,
                idleTimeout: idleTimeout,
                shouldContinue: shouldContinue,
                cancelled: cancelled,
                onBody: onBody
            )
        } onCancel: {
            cancelled.withLock { $0 = true }
            connectionBox.withLock { $0 }?.close()
        }
    }

    /// Why a followed read was stopped from outside the byte stream.
    private enum FollowStop: Sendable {
        /// The head did not arrive within ``timeout``.
        case headLate
        /// No body byte arrived within the idle timeout.
        case stalled
        /// `shouldContinue` said to stop.
        case caller
    }

    private func followBody(
        url: String,
        connection: TCPConnection,
        request: [UInt8],
        checkInterval: Duration,
        idleTimeout: Duration,
        shouldContinue: @escaping @Sendable () -> Bool,
        cancelled: Locked<Bool>,
        onBody: ([UInt8]) -> Void
    ) async throws -> FollowOutcome {
        // Until the head arrives the exchange timeout applies; then each wait for more of the
        // body has the idle limit; shouldContinue may end the read at any time.
        let clock = self.clock
        let timeout = self.timeout
        let headArrived = Locked(false)
        let lastBytes = Locked(clock.now)
        let stop = Locked<FollowStop?>(nil)
        let deadline = clock.now.advanced(by: timeout)
        let interval = min(checkInterval, timeout, idleTimeout)
        let watcher = Task {
            while !Task.isCancelled {
                try? await clock.sleep(for: interval)
                guard !Task.isCancelled else { return }
                let now = clock.now
                let reason: FollowStop?
                if !headArrived.withLock({ $0 }) {
                    reason = now >= deadline ? .headLate : nil
                } else {
                    reason = lastBytes.withLock { now >= $0.advanced(by: idleTimeout) } ? .stalled : nil
                }
                if let reason = reason ?? (shouldContinue() ? nil : .caller) {
                    stop.withLock { $0 = reason }
                    connection.close()
                    return
                }
            }
        }
        defer { watcher.cancel() }
        try await connection.send(request)
        var parser = HTTPResponseParser(requestMethod: .get, maximumBodySize: maximumBodySize, bodyPrefixLimit: 0)
        var status: HTTPStatus?
        var bodyBytes = 0
        func stopped() throws -> FollowOutcome {
            if cancelled.withLock({ $0 }) { throw CancellationError() }
            switch stop.withLock({ $0 }) {
            case .caller?:
                if let status { return FollowOutcome(status: status, bodyBytes: bodyBytes, serverEnded: false) }
                throw TCPError(code: .timedOut, operation: "HTTP request", address: url)
            case .stalled?:
                throw TCPError(code: .timedOut, operation: "HTTP body (no bytes within \(idleTimeout))", address: url)
            case .headLate?, nil:
                throw TCPError(code: .timedOut, operation: "HTTP request", address: url)
            }
        }
        while true {
            let bytes: [UInt8]?
            do { bytes = try await connection.receive() } catch {
                if cancelled.withLock({ $0 }) || stop.withLock({ $0 }) != nil { return try stopped() }
                throw error
            }
            guard let bytes else {
                if cancelled.withLock({ $0 }) || stop.withLock({ $0 }) != nil { return try stopped() }
                guard let status else {
                    _ = try parser.finish()
                    throw HTTPParseError(.malformedStartLine, offset: 0, detail: "no response head")
                }
                return FollowOutcome(status: status, bodyBytes: bodyBytes, serverEnded: true)
            }
            lastBytes.withLock { $0 = clock.now }
            parser.append(bytes)
            if status == nil {
                guard let response = try parser.nextResponse() else { continue }
                status = response.status
                headArrived.withLock { $0 = true }
            }
            let (piece, isComplete) = try parser.takeBodyBytes()
            bodyBytes += piece.count
            if !piece.isEmpty { onBody(piece) }
            if isComplete, let status {
                return FollowOutcome(status: status, bodyBytes: bodyBytes, serverEnded: true)
            }
        }
    }
}
