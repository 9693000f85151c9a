import CastNetCore
import CastTime
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// One client of an ``HTTPServer``: parses requests, runs their route in a task, writes the
/// response (streaming files as the socket drains) and keeps the connection for the next
/// request. The request timer bounds how long a client may take to send a request.
///
/// `@unchecked Sendable`: all mutable state is used only on the channel's loop thread.
final class HTTPServerConnection: ByteChannelHandler, @unchecked Sendable {
    private enum State {
        case reading
        case handling
        case writing
        /// Writing a ``HTTPResponseStream`` until it finishes or the client goes away.
        case streaming
        /// An error response is out and our side is shut: read and discard what the client
        /// still sends, so closing does not reset the connection before it reads the response.
        case draining
        case closed
    }

    private let channel: any ByteChannel
    private let loop: any ChannelLoop
    private let routes: HTTPRoutes
    private let configuration: HTTPServerConfiguration
    private let clock: any CastClock
    private var parser: HTTPRequestParser
    private var state = State.reading
    private var timer: CastTimer?
    private var timerGeneration = 0
    private var served = 0
    private var peerFinished = false
    private var keepAlive = false
    private var file: PreparedHTTPResponse.FileRegion?
    private var chunkInFlight = false
    private var drained = 0
    private var stream: HTTPResponseStream?

    /// Takes over an active channel; call on its loop.
    init(channel: any ByteChannel, routes: HTTPRoutes, configuration: HTTPServerConfiguration, clock: any CastClock) {
        self.channel = channel
        self.loop = channel.loop
        self.routes = routes
        self.configuration = configuration
        self.clock = clock
        self.parser = HTTPRequestParser(limits: configuration.limits)
        channel.handler = self
        channel.maximumReadSize = 16 * 1024
        startReading()
    }

    // MARK: Requests

    /// Waits for the next request. `timerArmed` is `true` when the request timer was armed
    /// before the previous response's last bytes went out.
    private func startReading(timerArmed: Bool = false) {
        state = .reading
        if !timerArmed { armTimer() }
        channel.setReading(true)
        processBuffered()
    }

    private func armTimer() {
        timer?.cancel()
        timerGeneration += 1
        let generation = timerGeneration
        timer = clock.schedule(after: configuration.requestTimeout) { [weak self] in
            guard let self else { return }
            self.loop.execute { self.timerFired(generation) }
        }
    }

    private func timerFired(_ generation: Int) {
        guard generation == timerGeneration, state == .reading else { return }
        // A client that started a request, or never sent one, is told why it is cut off;
        // an idle kept-alive connection is just closed.
        if parser.bufferedByteCount > 0 || served == 0 {
            respondWithError(.requestTimeout)
        } else {
            state = .closed
            channel.closeGracefully()
        }
    }

    private func processBuffered() {
        guard state == .reading else { return }
        let request: HTTPRequest?
        do {
            request = try parser.nextRequest()
        } catch {
            respondWithError(error.status)
            return
        }
        guard let request else {
            if peerFinished {
                state = .closed
                channel.closeGracefully()
            }
            return
        }
        handle(request)
    }

    private func handle(_ request: HTTPRequest) {
        timer?.cancel()
        timer = nil
        timerGeneration += 1
        state = .handling
        channel.setReading(false)
        served += 1
        keepAlive = request.keepAlive && !peerFinished && served < configuration.maximumRequestsPerConnection
        let routes = self.routes
        let keepAlive = self.keepAlive
        let serverName = configuration.serverName
        Task {
            let response = await routes.response(to: request)
            let prepared = await PreparedHTTPResponse.make(
                response,
                to: request,
                keepAlive: keepAlive,
                serverName: serverName
            )
            self.loop.execute { self.send(prepared) }
        }
    }

    // MARK: Responses

    private func send(_ prepared: PreparedHTTPResponse) {
        guard state == .handling else {
            if let region = prepared.file { close(region.fd) }
            prepared.stream?.connectionClosed()
            return
        }
        if prepared.closesConnection { keepAlive = false }
        if let stream = prepared.stream {
            startStreaming(stream, head: prepared.head)
            return
        }
        let streamsFile = prepared.file.map { $0.length > 0 } ?? false
        if !streamsFile { armTimerForNextRequest() }
        channel.write(prepared.head)
        if !prepared.body.isEmpty { channel.write(prepared.body) }
        if let region = prepared.file, streamsFile {
            file = region
            state = .writing
            pumpFile()
            return
        }
        if let region = prepared.file { close(region.fd) }
        finishResponse()
    }

    /// Arms the request timer of a kept-alive connection before the response's last bytes
    /// are handed to the socket: a client that has the whole response can count on the
    /// timer for its next request already running (a test clock advanced at that moment
    /// must see it).
    private func armTimerForNextRequest() {
        if keepAlive { armTimer() }
    }

    private func pumpFile() {
        guard state == .writing, let region = file, !chunkInFlight else { return }
        guard channel.pendingWriteBytes < 256 * 1024 else { return }
        chunkInFlight = true
        let count = min(64 * 1024, region.length)
        PreparedHTTPResponse.fileQueue.async {
            var chunk = [UInt8](repeating: 0, count: count)
            let read = chunk.withUnsafeMutableBytes { pread(region.fd, $0.baseAddress, count, off_t(region.offset)) }
            if read > 0 && read < count { chunk.removeLast(count - read) }
            let result = read > 0 ? chunk : nil
            self.loop.execute { self.chunkRead(result) }
        }
    }

    private func chunkRead(_ chunk: [UInt8]?) {
        chunkInFlight = false
        guard state == .writing, var region = file else { return }
        guard let chunk else {
            // The file shrank or failed under us: the declared length cannot be honoured.
            closeFile()
            state = .closed
            channel.close(error: nil)
            return
        }
        region.offset += chunk.count
        region.length -= chunk.count
        if region.length <= 0 {
            closeFile()
            armTimerForNextRequest()
            channel.write(chunk)
            finishResponse()
        } else {
            file = region
            channel.write(chunk)
            pumpFile()
        }
    }

    // MARK: Streams

    /// Sends the head, then whatever the stream is given, until it finishes or the client
    /// goes away. Reading goes on (and is discarded) so that a client closing is seen.
    private func startStreaming(_ stream: HTTPResponseStream, head: [UInt8]) {
        state = .streaming
        self.stream = stream
        channel.write(head)
        channel.setReading(true)
        let loop = self.loop
        stream.attach { [weak self] event in
            guard let connection = self else { return }
            loop.execute { connection.streamEvent(event) }
        }
    }

    private func streamEvent(_ event: HTTPResponseStream.Event) {
        guard state == .streaming, let stream else { return }
        switch event {
        case .bytes(let bytes):
            stream.delivered(bytes.count)
            channel.write(bytes)
            stream.socketQueueChanged(channel.pendingWriteBytes)
            // A client that stopped reading is dropped rather than buffered for.
            if channel.pendingWriteBytes > stream.bufferLimit {
                endStream()
                channel.close(error: nil)
            }
        case .finish:
            endStream()
            channel.closeGracefully()
        case .abort:
            endStream()
            channel.close(error: nil)
        }
    }

    private func endStream() {
        state = .closed
        let ended = stream
        stream = nil
        ended?.connectionClosed()
    }

    private func closeFile() {
        if let region = file { close(region.fd) }
        file = nil
    }

    /// Called once the response's last bytes are queued (the timer of a kept-alive
    /// connection is already armed).
    private func finishResponse() {
        guard state != .closed else { return }
        if keepAlive {
            startReading(timerArmed: true)
        } else {
            state = .closed
            channel.closeGracefully()
        }
    }

    private func respondWithError(_ status: HTTPStatus) {
        timer?.cancel()
        timer = nil
        state = .draining
        channel.write(PreparedHTTPResponse.error(status))
        channel.shutdownOutput()
        channel.setReading(true)
        timerGeneration += 1
        timer = clock.schedule(after: .seconds(2)) { [weak self] in
            guard let self else { return }
            self.loop.execute {
                guard self.state == .draining else { return }
                self.state = .closed
                self.channel.close(error: nil)
            }
        }
    }

    // MARK: Channel events

    func channelDidBecomeActive(_ channel: any ByteChannel) {}

    func channel(_ channel: any ByteChannel, didRead bytes: UnsafeRawBufferPointer) {
        if state == .streaming {
            // A streaming client has nothing more to say; more than a little is abuse.
            drained += bytes.count
            if drained > 64 * 1024 {
                endStream()
                channel.close(error: nil)
            }
            return
        }
        if state == .draining {
            drained += bytes.count
            if drained > 1 << 20 {
                state = .closed
                channel.close(error: nil)
            }
            return
        }
        parser.append(bytes)
        processBuffered()
    }

    func channelDidReadEndOfFile(_ channel: any ByteChannel) {
        peerFinished = true
        if state == .streaming {
            endStream()
            channel.close(error: nil)
            return
        }
        if state == .draining {
            state = .closed
            channel.close(error: nil)
            return
        }
        if state == .reading { processBuffered() }
    }

    func channelDidDrain(_ channel: any ByteChannel) {
        if state == .writing { pumpFile() }
        if state == .streaming { stream?.socketQueueChanged(channel.pendingWriteBytes) }
    }

    func channel(_ channel: any ByteChannel, didCloseWith error: (any Error)?) {
        if state == .streaming { endStream() }
        state = .closed
        timer?.cancel()
        timer = nil
        if !chunkInFlight { closeFile() }
    }
}
