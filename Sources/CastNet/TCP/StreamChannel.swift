import CastCrypto
import CastNetCore
import CastTime

#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking TCP socket watched by its event loop's poller.
///
/// `@unchecked Sendable`: every mutable property is read and written only on the loop's
/// thread (readiness is delivered there and every entry point asserts or hops to it).
final class StreamChannel: NetworkByteChannel, IOHandler, @unchecked Sendable {
    private enum State {
        case idle
        case connecting
        case active
        case closed
    }

    let eventLoop: EventLoop
    var loop: any ChannelLoop { eventLoop }
    var handler: (any ByteChannelHandler)?
    var maximumReadSize = 16 * 1024
    private(set) var pendingWriteBytes = 0

    private let fd: Int32
    private let clock: any CastClock
    private var state = State.idle
    private var registered = false
    private var parked = false
    private var interest: IOInterest = []
    private var readEnabled = false
    private var inputClosed = false
    private var outputShutdownRequested = false
    private var outputShut = false
    private var closeWhenDrained = false
    private var writeQueue: [[UInt8]] = []
    private var writeHead = 0
    private var writeOffset = 0
    private var connectCompletion: ((Result<StreamChannel, TCPError>) -> Void)?
    /// Runs once when the socket is closed (a listener counting its open connections).
    private var closeObserver: (@Sendable () -> Void)?
    private var connectTimer: CastTimer?
    private var closeTimer: CastTimer?
    private var addressText: String?

    /// Wraps a connected or connecting descriptor; the channel closes it.
    init(fd: Int32, loop: EventLoop, clock: any CastClock) {
        self.fd = fd
        self.eventLoop = loop
        self.clock = clock
    }

    var isClosed: Bool { state == .closed }
    var localAddress: SocketAddress? { state == .closed ? nil : Socket.localAddress(fd) }
    var remoteAddress: SocketAddress? { state == .closed ? nil : Socket.remoteAddress(fd) }
    var peerCertificate: Certificate? { nil }
    var peerCertificateReference: X509Reference? { nil }
    var tlsVersion: String? { nil }

    // MARK: Connecting

    /// Connects to `address` and calls `completion` on `loop` with the active channel.
    static func connect(
        to address: SocketAddress,
        loop: EventLoop,
        clock: any CastClock,
        timeout: Duration,
        attempt: ConnectAttempt? = nil,
        completion: @escaping (Result<StreamChannel, TCPError>) -> Void
    ) {
        loop.assertInLoop()
        let fd: Int32
        do {
            fd = try Socket.makeStream(family: address.familyValue)
        } catch {
            completion(.failure(error))
            return
        }
        Socket.setNoDelay(fd)
        let channel = StreamChannel(fd: fd, loop: loop, clock: clock)
        channel.addressText = address.description
        // Abandoning the attempt closes the socket at once, not at the connect timeout.
        let abortable = attempt?.setAbort { loop.execute { channel.abandonConnect() } } ?? true
        guard abortable else {
            channel.close(error: nil)
            completion(.failure(ConnectAttempt.cancelledError(address.description)))
            return
        }
        do {
            try channel.register()
        } catch {
            channel.close(error: error)
            completion(.failure(error))
            return
        }
        let connected: Bool
        do {
            connected = try Socket.connect(fd, to: address)
        } catch {
            channel.close(error: error)
            completion(.failure(error))
            return
        }
        if connected {
            channel.state = .active
            completion(.success(channel))
            return
        }
        channel.state = .connecting
        channel.updateInterest()
        channel.connectCompletion = completion
        // The timer keeps the channel alive until it fires or is cancelled.
        channel.connectTimer = clock.schedule(after: timeout) {
            channel.loop.execute {
                guard channel.state == .connecting else { return }
                let error = TCPError(code: .timedOut, operation: "connect", address: address.description)
                channel.failConnect(error)
            }
        }
    }

    private func finishConnect() {
        let error = Socket.pendingError(fd)
        if error != 0 {
            failConnect(TCPError(errno: error, operation: "connect", address: addressText))
            return
        }
        connectTimer?.cancel()
        connectTimer = nil
        state = .active
        updateInterest()
        let completion = connectCompletion
        connectCompletion = nil
        completion?(.success(self))
    }

    /// The attempt was abandoned: a connect still under way fails now and its socket closes.
    private func abandonConnect() {
        guard state == .connecting else { return }
        failConnect(ConnectAttempt.cancelledError(addressText))
    }

    private func failConnect(_ error: TCPError) {
        connectTimer?.cancel()
        connectTimer = nil
        let completion = connectCompletion
        connectCompletion = nil
        close(error: error)
        completion?(.failure(error))
    }

    /// Starts an accepted channel: registers it with its loop's poller.
    func startAccepted() throws(TCPError) {
        eventLoop.assertInLoop()
        do {
            try register()
        } catch {
            close(error: error)
            throw error
        }
        state = .active
    }

    // MARK: Readiness

    private func register() throws(TCPError) {
        try eventLoop.register(fd, interest: [], handler: self)
        registered = true
    }

    /// Watches for what the channel needs now: reading when enabled, writing while
    /// connecting or while bytes wait.
    private func updateInterest() {
        guard registered, !parked else { return }
        var wanted: IOInterest = []
        if readEnabled && !inputClosed && state == .active { wanted.insert(.read) }
        if state == .connecting || (state == .active && pendingWriteBytes > 0) { wanted.insert(.write) }
        if wanted != interest {
            interest = wanted
            eventLoop.update(fd, interest: wanted)
        }
    }

    func ioReady(readable: Bool, writable: Bool, hangup: Bool, error: Bool) {
        if state == .connecting {
            if writable || hangup || error { finishConnect() }
            return
        }
        guard state == .active else { return }
        if error || hangup {
            // What the peer sent before it reset or hung up is delivered before the close.
            let waitsForOwner = readAllArrived()
            guard state == .active, !waitsForOwner else { return }
        }
        if error {
            let code = Socket.pendingError(fd)
            close(error: TCPError(errno: code == 0 ? ECONNRESET : code, operation: "poll", address: addressText))
            return
        }
        if writable || (hangup && pendingWriteBytes > 0) { writeReady() }
        guard state == .active else { return }
        if readable { readReady() }
        guard state == .active else { return }
        if hangup && !(readEnabled && !inputClosed) && !parked {
            // Hang-ups are reported whatever the interest: stop watching until the owner
            // reads again, instead of spinning on a socket nobody reads.
            parked = true
            interest = []
            eventLoop.park(fd)
        }
    }

    private func unpark() {
        guard parked, state == .active else { return }
        parked = false
        interest = []
        // Re-arm even when the interest set is empty, so hang-ups are reported again.
        eventLoop.update(fd, interest: [])
        updateInterest()
    }

    // MARK: Reading

    func setReading(_ enabled: Bool) {
        eventLoop.assertInLoop()
        readEnabled = enabled
        if enabled && parked {
            unpark()
        } else {
            updateInterest()
        }
    }

    private func readReady() {
        _ = readOnce()
    }

    /// Reads and delivers one chunk; `true` when bytes were delivered (more may follow).
    private func readOnce() -> Bool {
        guard state == .active, readEnabled, !inputClosed else { return false }
        let scratch = eventLoop.scratch.pointer
        let size = max(1, min(scratch.count, maximumReadSize))
        let buffer = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<size])
        do {
            switch try Socket.read(fd, into: buffer) {
            case .transferred(let count):
                handler?.channel(self, didRead: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                return true
            case .wouldBlock:
                return false
            case .endOfFile:
                inputClosed = true
                updateInterest()
                handler?.channelDidReadEndOfFile(self)
                return false
            }
        } catch {
            close(error: error)
            return false
        }
    }

    /// After a reset or hang-up: delivers every byte that arrived before it, while the owner
    /// reads. The socket's receive queue still holds them, and a reset makes `recv` fail only
    /// once the queue is empty. When the owner has stopped reading with bytes still queued,
    /// the channel parks until it reads again, so the bytes are not lost to the close.
    /// - Returns: `true` when bytes wait for the owner to read again.
    private func readAllArrived() -> Bool {
        while readOnce() {}
        guard state == .active, !inputClosed, !readEnabled, Socket.queuedInputBytes(fd) > 0 else { return false }
        if !parked {
            parked = true
            interest = []
            eventLoop.park(fd)
        }
        return true
    }

    // MARK: Writing

    func write(_ bytes: [UInt8]) {
        eventLoop.assertInLoop()
        guard state == .active, !outputShutdownRequested, !bytes.isEmpty else { return }
        if pendingWriteBytes == 0 {
            do {
                let written = try writeNow(bytes, from: 0)
                if written == bytes.count { return }
                writeQueue.append(bytes)
                writeOffset = written
                pendingWriteBytes = bytes.count - written
            } catch {
                close(error: error)
                return
            }
            updateInterest()
        } else {
            writeQueue.append(bytes)
            pendingWriteBytes += bytes.count
        }
    }

    /// Writes as much of `bytes[offset...]` as the kernel takes; returns the new offset.
    private func writeNow(_ bytes: [UInt8], from offset: Int) throws(TCPError) -> Int {
        var offset = offset
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(TCPError) in
                    try Socket.write(fd, from: UnsafeRawBufferPointer(rebasing: raw[offset...]))
                }
            }
            guard case .transferred(let count) = try result.get() else { break }
            offset += count
        }
        return offset
    }

    private func writeReady() {
        switch state {
        case .connecting:
            finishConnect()
            return
        case .active:
            break
        case .idle, .closed:
            return
        }
        do {
            while writeHead < writeQueue.count {
                let bytes = writeQueue[writeHead]
                let offset = try writeNow(bytes, from: writeOffset)
                pendingWriteBytes -= offset - writeOffset
                if offset < bytes.count {
                    writeOffset = offset
                    compactWriteQueue()
                    return
                }
                writeHead += 1
                writeOffset = 0
            }
        } catch {
            close(error: error)
            return
        }
        writeQueue.removeAll(keepingCapacity: writeQueue.capacity <= 64)
        writeHead = 0
        pendingWriteBytes = 0
        updateInterest()
        drained()
    }

    private func compactWriteQueue() {
        if writeHead > 32 && writeHead * 2 > writeQueue.count {
            writeQueue.removeFirst(writeHead)
            writeHead = 0
        }
    }

    private func drained() {
        if outputShutdownRequested && !outputShut {
            outputShut = true
            Socket.shutdownOutput(fd)
        }
        if closeWhenDrained {
            close(error: nil)
            return
        }
        handler?.channelDidDrain(self)
    }

    func shutdownOutput() {
        eventLoop.assertInLoop()
        guard state == .active, !outputShutdownRequested else { return }
        outputShutdownRequested = true
        if pendingWriteBytes == 0 {
            outputShut = true
            Socket.shutdownOutput(fd)
        }
    }

    // MARK: Closing

    func closeGracefully() {
        eventLoop.assertInLoop()
        guard state != .closed else { return }
        if pendingWriteBytes == 0 || state != .active {
            close(error: nil)
            return
        }
        closeWhenDrained = true
        closeTimer = clock.schedule(after: .seconds(10)) { [weak self] in
            guard let self else { return }
            self.eventLoop.execute {
                self.close(error: TCPError(code: .timedOut, operation: "close"))
            }
        }
    }

    /// Runs `observer` once when the socket closes. Set before the channel is started.
    func onClose(_ observer: @escaping @Sendable () -> Void) {
        closeObserver = observer
    }

    func close(error: (any Error)?) {
        eventLoop.assertInLoop()
        guard state != .closed else { return }
        state = .closed
        let observer = closeObserver
        closeObserver = nil
        defer { observer?() }
        connectTimer?.cancel()
        connectTimer = nil
        closeTimer?.cancel()
        closeTimer = nil
        writeQueue = []
        writeHead = 0
        pendingWriteBytes = 0
        if registered { eventLoop.deregister(fd) }
        registered = false
        Socket.close(fd)
        let handler = self.handler
        self.handler = nil
        handler?.channel(self, didCloseWith: error)
    }
}
