public import CastCrypto
import CastNetCore
import CastSync
public import CastTime

/// A connected byte stream over TCP, optionally secured with TLS.
///
/// The connection runs on one loop of an ``EventLoopGroup``; its methods may be called
/// from any task. Reading from the socket pauses while received bytes wait for
/// ``receive(maximumCount:)``, and ``send(_:)`` suspends while the peer is not reading.
public final class TCPConnection: Sendable {
    private let core: ByteStreamCore

    /// The local address of the socket.
    public let localAddress: SocketAddress?
    /// The address of the peer.
    public let remoteAddress: SocketAddress?
    /// The peer's TLS certificate, or `nil` for plain TCP or when the peer sent none.
    public let peerCertificate: Certificate?
    /// The negotiated TLS version (`"TLSv1.3"`), or `nil` for plain TCP.
    public let tlsVersion: String?

    /// The peer's TLS certificate in DER (what Cast device authentication signs).
    public var peerCertificateDER: [UInt8]? { peerCertificate?.derBytes }

    init(core: ByteStreamCore) {
        self.core = core
        localAddress = core.channel.localAddress
        remoteAddress = core.channel.remoteAddress
        peerCertificate = core.channel.peerCertificate
        tlsVersion = core.channel.tlsVersion
    }

    deinit {
        let core = self.core
        core.loop.execute { core.close() }
    }

    /// Connects to `address`, then runs a TLS handshake when `tls` is given.
    /// - Parameters:
    ///   - address: the peer.
    ///   - tls: the TLS client settings, or `nil` for plain TCP.
    ///   - timeout: the limit for the TCP connection (the TLS handshake has its own).
    ///   - clock: the clock that times the connection and the handshake.
    ///   - group: the loops to run on.
    /// - Throws: ``TCPError`` (refused, unreachable, timed out...) or ``TLSError``;
    ///   `CancellationError` when the task was cancelled: the socket is closed at once, whether
    ///   the peer never completed the TCP handshake or the TLS handshake was under way.
    public static func connect(
        to address: SocketAddress,
        tls: TLSClientConfiguration? = nil,
        timeout: Duration = .seconds(10),
        clock: any CastClock = SystemCastClock(),
        group: EventLoopGroup = .shared
    ) async throws -> TCPConnection {
        let context = try tls.map { configuration throws(TLSError) in try configuration.makeContext() }
        let loop = group.next()
        let attempt = ConnectAttempt()
        let result = await withTaskCancellationHandler {
            await withHandOffContinuation { (continuation: HandOffContinuation<Result<TCPConnection, any Error>>) in
                ChannelConnector.connect(
                    to: address,
                    tls: context,
                    timeout: timeout,
                    clock: clock,
                    loop: loop,
                    attempt: attempt
                ) { result in
                    continuation.resume(returning: result.map { TCPConnection(core: ByteStreamCore(channel: $0)) })
                }
            }
        } onCancel: {
            attempt.cancel()
        }
        if case .failure = result, attempt.isCancelled { throw CancellationError() }
        return try result.get()
    }

    /// Resolves `host` and connects to its first address that answers.
    /// - Throws: ``TCPError`` or ``TLSError``; with several addresses, the last failure;
    ///   `CancellationError` when the task was cancelled.
    public static func connect(
        host: String,
        port: Int,
        tls: TLSClientConfiguration? = nil,
        timeout: Duration = .seconds(10),
        clock: any CastClock = SystemCastClock(),
        group: EventLoopGroup = .shared
    ) async throws -> TCPConnection {
        var lastError: any Error = TCPError(code: .nameResolutionFailed, operation: "resolve", address: host)
        let addresses: [SocketAddress]
        do {
            addresses = try await Resolver.resolve(host: host, port: port)
        } catch {
            try Task.checkCancellation()
            throw error
        }
        for address in addresses {
            try Task.checkCancellation()
            do {
                return try await connect(to: address, tls: tls, timeout: timeout, clock: clock, group: group)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    /// Sends `bytes`; returns once they are queued and the queue is short again.
    /// - Throws: ``TCPError`` or ``TLSError`` when the connection is closed or fails.
    public func send(_ bytes: [UInt8]) async throws {
        let core = self.core
        let result = await withHandOffContinuation { continuation in
            core.loop.execute { core.send(bytes, continuation: continuation) }
        }
        try result.get()
    }

    /// Receives up to `maximumCount` bytes; `nil` once the peer has finished sending.
    /// - Throws: ``TCPError`` or ``TLSError`` when the connection failed.
    public func receive(maximumCount: Int = 64 * 1024) async throws -> [UInt8]? {
        let core = self.core
        let result = await withHandOffContinuation { continuation in
            core.loop.execute { core.receive(maximum: maximumCount, continuation: continuation) }
        }
        return try result.get()
    }

    /// Finishes the sending side once queued bytes are out (TCP half-close, preceded by a
    /// TLS close_notify); receiving goes on.
    public func shutdownOutput() {
        let core = self.core
        core.loop.execute { core.shutdownOutput() }
    }

    /// Closes the connection after queued bytes are out.
    public func close() {
        let core = self.core
        core.loop.execute { core.close() }
    }
}
