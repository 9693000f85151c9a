import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking TCP socket driven by Dispatch read and write sources on one event loop.
///
/// `@unchecked Sendable`: every mutable property is read and written only on `loop.queue`
/// (the sources fire there and every entry point asserts or hops to it).
final class StreamChannel: ByteChannel, @unchecked Sendable {
    private enum State {
        case idle
        case connecting
        case active
        case closed
    }

    let loop: EventLoop
    var handler: (any ByteChannelHandler)?
    var maximumReadSize = 16 * 1024
    private(set) var pendingWriteBytes = 0

    private let fd: Int32
    private let clock: any CastClock
    private var state = State.idle
    private var readSource: (any DispatchSourceRead)?
    private var writeSource: (any DispatchSourceWrite)?
    private var readEnabled = false
    private var readResumed = false
    private var writeResumed = false
    private var inputClosed = false
    private var outputShutdownRequested = false
    private var outputShut = false
    private var closeWhenDrained = false
    private var writeQueue: [[UInt8]] = []
    private var writeHead = 0
    private var writeOffset = 0
    private var connectCompletion: ((Result<StreamChannel, TCPError>) -> Void)?
    private var connectTimer: CastTimer?
    private var closeTimer: CastTimer?
    private var addressText: String?

    /// Wraps a connected or connecting descriptor; the channel closes it.
    init(fd: Int32, loop: EventLoop, clock: any CastClock) {
        self.fd = fd
        self.loop = loop
        self.clock = clock
    }

    var isClosed: Bool { state == .closed }
    var localAddress: SocketAddress? { state == .closed ? nil : Socket.localAddress(fd) }
    var remoteAddress: SocketAddress? { state == .closed ? nil : Socket.remoteAddress(fd) }
    var peerCertificate: Certificate? { nil }
    var tlsVersion: String? { nil }

    // MARK: Connecting

    /// Connects to `address` and calls `completion` on `loop` with the active channel.
    static func connect(
        to address: SocketAddress,
        loop: EventLoop,
        clock: any CastClock,
        timeout: Duration,
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
        channel.makeSources()
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
        channel.connectCompletion = completion
        channel.connectTimer = clock.schedule(after: timeout) { [weak channel] in
            guard let channel else { return }
            channel.loop.execute {
                guard channel.state == .connecting else { return }
                let error = TCPError(code: .timedOut, operation: "connect", address: address.description)
                channel.failConnect(error)
            }
        }
        channel.resumeWriteSource()
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
        suspendWriteSource()
        let completion = connectCompletion
        connectCompletion = nil
        completion?(.success(self))
    }

    private func failConnect(_ error: TCPError) {
        connectTimer?.cancel()
        connectTimer = nil
        let completion = connectCompletion
        connectCompletion = nil
        close(error: error)
        completion?(.failure(error))
    }

    /// Starts an accepted channel: creates its sources and tells the handler it is active.
    func startAccepted() {
        loop.assertInLoop()
        makeSources()
        state = .active
        handler?.channelDidBecomeActive(self)
    }

    // MARK: Sources

    private func makeSources() {
        let read = DispatchSource.makeReadSource(fileDescriptor: fd, queue: loop.queue)
        let write = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: loop.queue)
        let closer = DescriptorCloser(fd: fd, sources: 2)
        let cancelled: @Sendable () -> Void = { closer.sourceCancelled() }
        // The handlers keep the channel alive while it is open; cancelling the sources on
        // close releases them.
        read.setEventHandler { self.readReady() }
        write.setEventHandler { self.writeReady() }
        read.setCancelHandler(handler: cancelled)
        write.setCancelHandler(handler: cancelled)
        readSource = read
        writeSource = write
    }

    private func resumeWriteSource() {
        guard !writeResumed, let writeSource else { return }
        writeResumed = true
        writeSource.resume()
    }

    private func suspendWriteSource() {
        guard writeResumed, let writeSource else { return }
        writeResumed = false
        writeSource.suspend()
    }

    private func updateReadSource() {
        guard let readSource else { return }
        let want = readEnabled && !inputClosed && state == .active
        if want && !readResumed {
            readResumed = true
            readSource.resume()
        } else if !want && readResumed {
            readResumed = false
            readSource.suspend()
        }
    }

    // MARK: Reading

    func setReading(_ enabled: Bool) {
        loop.assertInLoop()
        readEnabled = enabled
        updateReadSource()
    }

    private func readReady() {
        guard state == .active, readEnabled, !inputClosed else { return }
        let scratch = loop.scratch.pointer
        let size = max(1, min(scratch.count, maximumReadSize))
        let buffer = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<size])
        do {
            switch try Socket.read(fd, into: buffer) {
            case .transferred(let count):
                handler?.channel(self, didRead: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            case .wouldBlock:
                break
            case .endOfFile:
                inputClosed = true
                updateReadSource()
                handler?.channelDidReadEndOfFile(self)
            }
        } catch {
            close(error: error)
        }
    }

    // MARK: Writing

    func write(_ bytes: [UInt8]) {
        loop.assertInLoop()
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
        } else {
            writeQueue.append(bytes)
            pendingWriteBytes += bytes.count
        }
        resumeWriteSource()
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
        suspendWriteSource()
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
        loop.assertInLoop()
        guard state == .active, !outputShutdownRequested else { return }
        outputShutdownRequested = true
        if pendingWriteBytes == 0 {
            outputShut = true
            Socket.shutdownOutput(fd)
        }
    }

    // MARK: Closing

    func closeGracefully() {
        loop.assertInLoop()
        guard state != .closed else { return }
        if pendingWriteBytes == 0 || state != .active {
            close(error: nil)
            return
        }
        closeWhenDrained = true
        closeTimer = clock.schedule(after: .seconds(10)) { [weak self] in
            guard let self else { return }
            self.loop.execute {
                self.close(error: TCPError(code: .timedOut, operation: "close"))
            }
        }
    }

    func close(error: (any Error)?) {
        loop.assertInLoop()
        guard state != .closed else { return }
        state = .closed
        connectTimer?.cancel()
        connectTimer = nil
        closeTimer?.cancel()
        closeTimer = nil
        writeQueue = []
        writeHead = 0
        pendingWriteBytes = 0
        if let readSource {
            readSource.cancel()
            if !readResumed { readSource.resume() }
        }
        if let writeSource {
            writeSource.cancel()
            if !writeResumed { writeSource.resume() }
        }
        if readSource == nil && writeSource == nil { Socket.close(fd) }
        readSource = nil
        writeSource = nil
        readResumed = false
        writeResumed = false
        let handler = self.handler
        self.handler = nil
        handler?.channel(self, didCloseWith: error)
    }
}

/// Closes a descriptor once every Dispatch source watching it has been cancelled.
///
/// `@unchecked Sendable`: the cancel handlers that call it all run on one serial queue.
private final class DescriptorCloser: @unchecked Sendable {
    private let fd: Int32
    private var remaining: Int

    init(fd: Int32, sources: Int) {
        self.fd = fd
        self.remaining = sources
    }

    func sourceCancelled() {
        remaining -= 1
        if remaining == 0 { Socket.close(fd) }
    }
}
