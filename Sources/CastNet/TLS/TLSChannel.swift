import CastCrypto
import CastNetCore
import CastTime

/// TLS over another ``ByteChannel``: ciphertext flows to and from the base channel, and the
/// handler sees plaintext.
///
/// `@unchecked Sendable`: every mutable property is used only on the loop's thread, where the
/// base channel delivers its events.
final class TLSChannel: NetworkByteChannel, ByteChannelHandler, @unchecked Sendable {
    private enum State {
        case idle
        case handshaking
        case active
        case closed
    }

    let base: any NetworkByteChannel
    let engine: TLSEngine
    var handler: (any ByteChannelHandler)?
    var maximumReadSize = 16 * 1024

    private let clock: any CastClock
    private var state = State.idle
    private var readEnabled = false
    private var delivering = false
    private var receivedCloseNotify = false
    private var deliveredEndOfFile = false
    private var baseEndOfFile = false
    private var closeError: (any Error)?
    private var handshakeTimer: CastTimer?
    private var activation: ((Result<TLSChannel, any Error>) -> Void)?

    init(base: any NetworkByteChannel, engine: TLSEngine, clock: any CastClock) {
        self.base = base
        self.engine = engine
        self.clock = clock
    }

    var eventLoop: EventLoop { base.eventLoop }
    var loop: any ChannelLoop { base.eventLoop }
    var pendingWriteBytes: Int { base.pendingWriteBytes }
    var isClosed: Bool { state == .closed }
    var localAddress: SocketAddress? { base.localAddress }
    var remoteAddress: SocketAddress? { base.remoteAddress }
    var peerCertificate: Certificate? { state == .active ? engine.peerCertificate : nil }
    var peerCertificateReference: X509Reference? { state == .active ? engine.peerCertificateReference : nil }
    var tlsVersion: String? { state == .active ? engine.protocolVersion : nil }

    /// Starts the handshake; `activation` runs once, when it completes or fails.
    func start(activation: @escaping (Result<TLSChannel, any Error>) -> Void) {
        eventLoop.assertInLoop()
        self.activation = activation
        state = .handshaking
        base.handler = self
        let timeout = engine.context.handshakeTimeout
        handshakeTimer = clock.schedule(after: timeout) { [weak self] in
            guard let self else { return }
            self.eventLoop.execute {
                guard self.state == .handshaking else { return }
                self.fail(TLSError(code: .handshakeTimedOut, reason: "no handshake within \(timeout)"))
            }
        }
        base.setReading(true)
        driveHandshake()
    }

    // MARK: Handshake

    private func driveHandshake() {
        let status = engine.handshake()
        flushCiphertext()
        switch status {
        case .needsInput:
            if baseEndOfFile {
                fail(
                    TLSError(
                        code: .unexpectedEndOfStream,
                        reason: "the peer closed the connection during the handshake"
                    )
                )
            }
        case .failed(let error):
            fail(error)
        case .complete:
            handshakeTimer?.cancel()
            handshakeTimer = nil
            state = .active
            base.setReading(readEnabled)
            let activation = self.activation
            self.activation = nil
            activation?(.success(self))
            deliverPlaintext()
        }
    }

    private func fail(_ error: any Error) {
        guard state != .closed else { return }
        closeError = error
        flushCiphertext()
        base.closeGracefully()
    }

    private func flushCiphertext() {
        while let ciphertext = engine.takeCiphertext() {
            base.write(ciphertext)
        }
    }

    // MARK: Reading

    func setReading(_ enabled: Bool) {
        eventLoop.assertInLoop()
        readEnabled = enabled
        guard state == .active else { return }
        if enabled {
            deliverPlaintext()
        } else {
            base.setReading(false)
        }
    }

    /// Hands decrypted bytes to the handler while it wants them; reads more ciphertext from
    /// the base channel only when the session holds no more plaintext.
    private func deliverPlaintext() {
        guard !delivering else { return }
        delivering = true
        defer { delivering = false }
        let scratch = eventLoop.scratch.pointer
        while state == .active && readEnabled {
            let size = max(1, min(scratch.count, maximumReadSize))
            let buffer = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<size])
            let result = engine.read(into: buffer)
            flushCiphertext()
            switch result {
            case .bytes(let count):
                handler?.channel(self, didRead: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            case .needsInput:
                if baseEndOfFile {
                    deliverEndOfFile()
                } else {
                    base.setReading(true)
                }
                return
            case .closed:
                receivedCloseNotify = true
                deliverEndOfFile()
                return
            case .failed(let error):
                fail(error)
                return
            }
        }
        if state == .active && !readEnabled { base.setReading(false) }
    }

    private func deliverEndOfFile() {
        guard !deliveredEndOfFile else { return }
        deliveredEndOfFile = true
        base.setReading(false)
        handler?.channelDidReadEndOfFile(self)
    }

    // MARK: Writing

    func write(_ bytes: [UInt8]) {
        eventLoop.assertInLoop()
        guard state == .active, !bytes.isEmpty else { return }
        if let error = bytes.withUnsafeBytes({ engine.write($0) }) {
            fail(error)
            return
        }
        flushCiphertext()
    }

    func write(messages: [[UInt8]]) {
        eventLoop.assertInLoop()
        guard state == .active else { return }
        for message in messages where !message.isEmpty {
            if let error = message.withUnsafeBytes({ engine.write($0) }) {
                fail(error)
                return
            }
        }
        flushCiphertext()
    }

    func shutdownOutput() {
        eventLoop.assertInLoop()
        guard state == .active else { return }
        engine.shutdown()
        flushCiphertext()
        base.shutdownOutput()
    }

    func closeGracefully() {
        eventLoop.assertInLoop()
        guard state != .closed else { return }
        if state == .active {
            engine.shutdown()
            flushCiphertext()
        }
        base.closeGracefully()
    }

    func close(error: (any Error)?) {
        eventLoop.assertInLoop()
        guard state != .closed else { return }
        if closeError == nil { closeError = error }
        base.close(error: error)
    }

    // MARK: Base channel events

    func channelDidBecomeActive(_ channel: any ByteChannel) {}

    func channel(_ channel: any ByteChannel, didRead bytes: UnsafeRawBufferPointer) {
        engine.receive(ciphertext: bytes)
        switch state {
        case .handshaking:
            driveHandshake()
        case .active:
            deliverPlaintext()
        case .idle, .closed:
            break
        }
    }

    func channelDidReadEndOfFile(_ channel: any ByteChannel) {
        baseEndOfFile = true
        switch state {
        case .handshaking:
            driveHandshake()
        case .active:
            if !readEnabled {
                // Delivered once the handler asks for more.
                return
            }
            deliverPlaintext()
        case .idle, .closed:
            break
        }
    }

    func channelDidDrain(_ channel: any ByteChannel) {
        if state == .active { handler?.channelDidDrain(self) }
    }

    func channel(_ channel: any ByteChannel, didCloseWith error: (any Error)?) {
        guard state != .closed else { return }
        let wasHandshaking = state == .handshaking
        state = .closed
        handshakeTimer?.cancel()
        handshakeTimer = nil
        var reported = closeError ?? error
        if wasHandshaking && reported == nil {
            reported = TLSError(code: .unexpectedEndOfStream, reason: "the connection closed during the handshake")
        }
        if let activation {
            self.activation = nil
            activation(.failure(reported ?? TLSError(code: .closed, reason: "closed")))
            return
        }
        let handler = self.handler
        self.handler = nil
        handler?.channel(self, didCloseWith: reported)
    }
}
