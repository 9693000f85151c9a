import CastNet
import CastSync

/// A reply that settled a request.
enum InboundReply: Sendable {
    case receiver(ReceiverMessage)
    case media(MediaMessage)
    case binary([UInt8])
}

/// What a ``DeviceConnection`` reports to its session, in order, on the transport's queue.
enum DeviceConnectionEvent: Sendable {
    case receiverStatus(ReceiverStatus)
    case media(MediaMessage, source: String)
    case closeFrom(source: String)
    case custom(namespace: CastNamespace, source: String, text: String)
    /// The connection is gone (socket closed, or heartbeat lost); pending requests have failed.
    case lost(CastError, SessionSuspendReason)
}

/// One live connection to a device: request ids and timeouts, heartbeat, and routing of
/// inbound messages.
///
/// State sits in one `Locked`; completions and events run after the lock is released.
final class DeviceConnection: Sendable {
    typealias Completion = @Sendable (Result<InboundReply, CastError>) -> Void

    static let platformSenderID = "sender-0"
    static let platformReceiverID = "receiver-0"

    private struct Pending {
        var name: String
        var namespace: CastNamespace
        var completion: Completion
        var timer: CastTimer?
    }

    private struct State {
        var tracker = RequestTracker()
        var pending: [Int: Pending] = [:]
        var heartbeat: HeartbeatStateMachine
        var heartbeatTimer: CastTimer?
        var transport: (any CastTransport)?
        var closed = false
        var binaryWaiter: Completion?
        /// Whether the transport reported its close (its socket is gone).
        var transportFinished = false
        var everOpened = false
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Locked<State>

    /// The requests sent and not yet answered, failed or timed out.
    var pendingRequestCount: Int { state.withLock { max($0.tracker.count, $0.pending.count) } }

    private let clock: any CastClock
    private let logger: CastLogger
    private let requestTimeout: Duration
    private let onEvent: @Sendable (DeviceConnectionEvent) -> Void

    private init(
        clock: any CastClock,
        logger: CastLogger,
        heartbeatInterval: Duration,
        heartbeatTimeout: Duration,
        requestTimeout: Duration,
        onEvent: @escaping @Sendable (DeviceConnectionEvent) -> Void
    ) {
        self.clock = clock
        self.logger = logger
        self.requestTimeout = requestTimeout
        self.onEvent = onEvent
        state = Locked(
            State(
                heartbeat: HeartbeatStateMachine(interval: heartbeatInterval, timeout: heartbeatTimeout, now: clock.now)
            )
        )
    }

    /// Connects and starts the heartbeat.
    static func open(
        host: String,
        port: Int,
        connector: any CastTransportConnector,
        clock: any CastClock,
        logger: CastLogger,
        heartbeatInterval: Duration,
        heartbeatTimeout: Duration,
        requestTimeout: Duration,
        onEvent: @escaping @Sendable (DeviceConnectionEvent) -> Void
    ) async throws(CastError) -> DeviceConnection {
        let connection = DeviceConnection(
            clock: clock,
            logger: logger,
            heartbeatInterval: heartbeatInterval,
            heartbeatTimeout: heartbeatTimeout,
            requestTimeout: requestTimeout,
            onEvent: onEvent
        )
        let transport = try await connector.connect(host: host, port: port) { [weak connection] event in
            connection?.handle(event)
        }
        let alreadyClosed = connection.state.withLock { state -> Bool in
            if state.closed { return true }
            state.transport = transport
            state.everOpened = true
            state.heartbeat = HeartbeatStateMachine(
                interval: heartbeatInterval,
                timeout: heartbeatTimeout,
                now: clock.now
            )
            return false
        }
        if alreadyClosed {
            transport.close()
            connection.transportFinished()
            throw CastError(.network, "the connection to \(host):\(port) closed during setup")
        }
        logger.log(.debug, .connection, "connected", metadata: ["cast.address": "\(host):\(port)"])
        connection.scheduleHeartbeat()
        return connection
    }

    var peerCertificateDER: [UInt8]? { state.withLock { $0.transport?.peerCertificateDER } }

    var isClosed: Bool { state.withLock { $0.closed } }

    /// Waits until the transport has reported its close (after ``close(failingWith:)`` or a
    /// loss), or at most `timeout` of real time: the socket is then gone from the device's
    /// point of view. Returns at once for a connection whose transport never opened.
    func waitUntilTransportFinished(timeout: Duration = .seconds(2)) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let done = self.state.withLock { state -> Bool in
                        if state.transportFinished || !state.everOpened { return true }
                        state.finishWaiters.append(continuation)
                        return false
                    }
                    if done { continuation.resume() }
                }
            }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
            self.transportFinished()
        }
    }

    private func transportFinished() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.transportFinished = true
            defer { state.finishWaiters.removeAll() }
            return state.finishWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    // MARK: Sending

    /// Sends a message that needs no reply (CONNECT, CLOSE, PING, custom text).
    func send(_ message: CastMessage) throws(CastError) {
        let transport = state.withLock { $0.closed ? nil : $0.transport }
        guard let transport else {
            throw CastError(.deviceNotConnected, "cannot send on \(message.namespace): not connected")
        }
        if logger.isEnabled(.verbose, for: .connection) {
            logger.log(
                .verbose,
                .connection,
                "send",
                metadata: [
                    "cast.namespace": message.namespace.rawValue,
                    "cast.destination-id": message.destinationID,
                    "cast.payload": message.payloadUTF8.map(LogRedaction.redact) ?? "<binary>",
                ]
            )
        }
        try transport.send(message)
    }

    /// Sends a JSON message without a request id.
    func send(
        _ payload: some CastJSONMessage,
        namespace: CastNamespace,
        from source: String,
        to destination: String
    )
        throws(CastError)
    {
        let text: String
        do { text = try payload.jsonString() } catch {
            throw CastError(.invalidRequest, "cannot encode \(payload.type): \(error)", underlying: error)
        }
        try send(CastMessage(sourceID: source, destinationID: destination, namespace: namespace, text: text))
    }

    /// Sends a request built with a fresh request id; `completion` runs exactly once.
    /// - Returns: the request id.
    @discardableResult
    func sendRequest(
        name: String,
        namespace: CastNamespace,
        from source: String,
        to destination: String,
        replacementGroup: String? = nil,
        timeout: Duration? = nil,
        build: (Int) -> any CastJSONMessage,
        completion: @escaping Completion
    ) -> Int {
        let deadlineDelay = timeout ?? requestTimeout
        let now = clock.now
        let begun = state.withLock { state -> (id: Int, replaced: [Pending])? in
            guard !state.closed, state.transport != nil else { return nil }
            let (id, replacedEntries) = state.tracker.begin(
                replacementGroup: replacementGroup,
                deadline: now.advanced(by: deadlineDelay)
            )
            let replaced = replacedEntries.compactMap { state.pending.removeValue(forKey: $0.id) }
            state.pending[id] = Pending(name: name, namespace: namespace, completion: completion)
            return (id, replaced)
        }
        guard let begun else {
            completion(.failure(CastError(.deviceNotConnected, "\(name) was not sent: not connected to the device")))
            return CastRequest.invalidRequestID
        }
        for replaced in begun.replaced {
            replaced.timer?.cancel()
            replaced.completion(.failure(CastError(.replaced, "\(replaced.name) was replaced by \(name)")))
        }
        let id = begun.id
        let timer = scheduleTimer(after: deadlineDelay) { [weak self] in self?.expire() }
        let stillPending = state.withLock { state -> Bool in
            guard state.pending[id] != nil else { return false }
            state.pending[id]?.timer = timer
            return true
        }
        if !stillPending { timer.cancel() }
        let payload = build(id)
        let text: String
        do { text = try payload.jsonString() } catch {
            settle(id, .failure(CastError(.invalidRequest, "cannot encode \(name): \(error)", underlying: error)))
            return id
        }
        do {
            try send(CastMessage(sourceID: source, destinationID: destination, namespace: namespace, text: text))
        } catch {
            settle(id, .failure(error))
        }
        return id
    }

    /// Sends a request and waits for its reply.
    ///
    /// Cancelling the waiting task abandons the request: its tracker entry is removed, a late
    /// reply is ignored, and the call throws ``CastError/Code/cancelled``.
    func request(
        name: String,
        namespace: CastNamespace,
        from source: String,
        to destination: String,
        timeout: Duration? = nil,
        build: (Int) -> any CastJSONMessage
    ) async throws(CastError) -> InboundReply {
        // The id is known only once the request is sent; a cancellation that comes first
        // is remembered and applied as soon as the id is.
        let sent = Locked<(id: Int?, cancelled: Bool)>((nil, false))
        let result = await withTaskCancellationHandler {
            await withHandOffContinuation { (continuation: HandOffContinuation<Result<InboundReply, CastError>>) in
                if sent.withLock({ $0.cancelled }) {
                    continuation.resume(
                        returning: .failure(CastError(.cancelled, "\(name) was cancelled before it was sent"))
                    )
                    return
                }
                let id = sendRequest(
                    name: name,
                    namespace: namespace,
                    from: source,
                    to: destination,
                    timeout: timeout,
                    build: build
                ) { result in continuation.resume(returning: result) }
                let cancelled = sent.withLock { sent -> Bool in
                    sent.id = id
                    return sent.cancelled
                }
                if cancelled { cancelRequest(id) }
            }
        } onCancel: {
            let id = sent.withLock { sent -> Int? in
                sent.cancelled = true
                return sent.id
            }
            if let id { cancelRequest(id) }
        }
        return try result.get()
    }

    /// Sends a binary message and waits for the next binary reply on the same namespace
    /// (the device-auth exchange).
    func exchangeBinary(_ message: CastMessage, timeout: Duration) async throws(CastError) -> [UInt8] {
        let result = await withHandOffContinuation {
            (continuation: HandOffContinuation<Result<InboundReply, CastError>>) in
            let completion: Completion = { continuation.resume(returning: $0) }
            let installed = state.withLock { state -> Bool in
                guard !state.closed, state.binaryWaiter == nil else { return false }
                state.binaryWaiter = completion
                return true
            }
            guard installed else {
                completion(.failure(CastError(.deviceNotConnected, "device authentication: not connected")))
                return
            }
            clock.schedule(after: timeout) { [weak self] in
                let waiter = self?.state.withLock { state -> Completion? in
                    defer { state.binaryWaiter = nil }
                    return state.binaryWaiter
                }
                waiter?(.failure(CastError(.timeout, "device authentication: no reply within \(timeout)")))
            }
            do throws(CastError) { try send(message) } catch {
                let waiter = state.withLock { state -> Completion? in
                    defer { state.binaryWaiter = nil }
                    return state.binaryWaiter
                }
                waiter?(.failure(error))
            }
        }
        guard case .binary(let bytes) = try result.get() else {
            throw CastError(.invalidResponse, "device authentication: unexpected reply")
        }
        return bytes
    }

    /// Abandons request `id`: its completion gets ``CastError/Code/cancelled``.
    func cancelRequest(_ id: Int) {
        let pending = state.withLock { state -> Pending? in
            guard state.tracker.cancel(id) != nil else { return nil }
            return state.pending.removeValue(forKey: id)
        }
        guard let pending else { return }
        pending.timer?.cancel()
        pending.completion(.failure(CastError(.cancelled, "\(pending.name) was cancelled")))
    }

    /// Closes the connection; pending requests fail with `error` (cancelled by default) and
    /// no `.lost` event is reported.
    func close(failingWith error: CastError? = nil) {
        shutDown(error ?? CastError(.cancelled, "the connection was closed by the sender"), report: nil)
    }

    // MARK: Inbound

    private func handle(_ event: CastTransportEvent) {
        switch event {
        case .message(let message):
            receive(message)
        case .closed(let error):
            defer { transportFinished() }
            // A device that broke the protocol or stalled keeps its own code; a plain loss
            // of the link is `disconnected`.
            let lost =
                if let error, error.code != .network {
                    error
                } else {
                    CastError(
                        .disconnected,
                        "the connection to the device was lost" + (error.map { ": \($0.reason)" } ?? ""),
                        underlying: error
                    )
                }
            shutDown(lost, report: .networkError)
        }
    }

    private func receive(_ message: CastMessage) {
        if logger.isEnabled(.verbose, for: .connection) {
            logger.log(
                .verbose,
                .connection,
                "receive",
                metadata: [
                    "cast.namespace": message.namespace.rawValue,
                    "cast.source-id": message.sourceID,
                    "cast.payload": message.payloadUTF8.map(LogRedaction.redact) ?? "<binary>",
                ]
            )
        }
        if message.namespace == .deviceAuth {
            let waiter = state.withLock { state -> Completion? in
                defer { state.binaryWaiter = nil }
                return state.binaryWaiter
            }
            waiter?(.success(.binary(message.payloadBinary ?? [])))
            return
        }
        guard let text = message.payloadUTF8 else {
            logger.log(
                .warning,
                .connection,
                "binary message ignored",
                metadata: ["cast.namespace": message.namespace.rawValue]
            )
            return
        }
        switch message.namespace {
        case .heartbeat:
            receiveHeartbeat(text, from: message.sourceID)
        case .connection:
            if case .close? = try? ConnectionMessage(jsonString: text) {
                onEvent(.closeFrom(source: message.sourceID))
            }
        case .receiver:
            receiveReceiver(text)
        case .media:
            receiveMedia(text, from: message.sourceID)
        default:
            onEvent(.custom(namespace: message.namespace, source: message.sourceID, text: text))
        }
    }

    private func receiveHeartbeat(_ text: String, from source: String) {
        guard let message = try? HeartbeatMessage(jsonString: text) else { return }
        let now = clock.now
        state.withLock { $0.heartbeat.heard(now: now) }
        if case .ping = message {
            try? send(
                PongMessage(),
                namespace: .heartbeat,
                from: Self.platformSenderID,
                to: source
            )
        }
    }

    private func receiveReceiver(_ text: String) {
        let message: ReceiverMessage
        do { message = try ReceiverMessage(jsonString: text) } catch {
            logger.log(.warning, .connection, "undecodable receiver message", metadata: ["cast.error": "\(error)"])
            return
        }
        if case .receiverStatus(let status) = message { onEvent(.receiverStatus(status.status)) }
        guard let id = message.requestId, id > 0 else { return }
        if case .launchStatus = message { return }
        let name = state.withLock { $0.pending[id]?.name } ?? "request"
        if let error = CastError.receiverReply(message, request: name) {
            settle(id, .failure(error))
        } else {
            settle(id, .success(.receiver(message)))
        }
    }

    private func receiveMedia(_ text: String, from source: String) {
        let message: MediaMessage
        do { message = try MediaMessage(jsonString: text) } catch {
            logger.log(.warning, .connection, "undecodable media message", metadata: ["cast.error": "\(error)"])
            return
        }
        onEvent(.media(message, source: source))
        guard let id = message.requestId, id > 0 else { return }
        let name = state.withLock { $0.pending[id]?.name } ?? "request"
        if let error = CastError.mediaReply(message, request: name) {
            settle(id, .failure(error))
        } else {
            settle(id, .success(.media(message)))
        }
    }

    private func settle(_ id: Int, _ result: Result<InboundReply, CastError>) {
        let pending = state.withLock { state -> Pending? in
            guard state.tracker.settle(id) != nil else { return nil }
            return state.pending.removeValue(forKey: id)
        }
        guard let pending else { return }
        pending.timer?.cancel()
        pending.completion(result)
    }

    private func expire() {
        let now = clock.now
        let expired = state.withLock { state -> [Pending] in
            state.tracker.expire(now: now).compactMap { state.pending.removeValue(forKey: $0.id) }
        }
        for pending in expired {
            logger.log(.info, .connection, "request timed out", metadata: ["cast.request": pending.name])
            pending.completion(
                .failure(CastError(.timeout, "\(pending.name) on \(pending.namespace) got no reply in time"))
            )
        }
    }

    // MARK: Timers

    /// Schedules `action` on the clock, on the transport's own thread when it has one.
    private func scheduleTimer(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> CastTimer {
        guard let transport = state.withLock({ $0.transport }) else { return clock.schedule(after: delay, action) }
        return transport.scheduleTimer(after: delay, on: clock, action)
    }

    // MARK: Heartbeat

    private func scheduleHeartbeat() {
        let interval = state.withLock { $0.heartbeat.interval }
        let timer = scheduleTimer(after: interval) { [weak self] in self?.heartbeatTick() }
        let stale = state.withLock { state -> Bool in
            if state.closed { return true }
            state.heartbeatTimer = timer
            return false
        }
        if stale { timer.cancel() }
    }

    private func heartbeatTick() {
        let now = clock.now
        let action = state.withLock { $0.heartbeat.tick(now: now) }
        switch action {
        case .sendPing:
            try? send(PingMessage(), namespace: .heartbeat, from: Self.platformSenderID, to: Self.platformReceiverID)
            scheduleHeartbeat()
        case .connectionLost(let silence):
            logger.log(.info, .connection, "heartbeat lost", metadata: ["cast.silence": "\(silence)"])
            shutDown(
                CastError(.disconnected, "the device did not answer heartbeats for \(silence)"),
                report: .networkError
            )
        case .none:
            break
        }
    }

    private func shutDown(_ error: CastError, report: SessionSuspendReason?) {
        let taken = state.withLock {
            state -> (transport: (any CastTransport)?, pending: [Pending], timer: CastTimer?, binary: Completion?)? in
            guard !state.closed else { return nil }
            state.closed = true
            state.heartbeat.stop()
            let entries = state.tracker.drain()
            let pending = entries.compactMap { state.pending.removeValue(forKey: $0.id) }
            defer {
                state.transport = nil
                state.heartbeatTimer = nil
                state.binaryWaiter = nil
            }
            return (state.transport, pending, state.heartbeatTimer, state.binaryWaiter)
        }
        guard let taken else { return }
        taken.timer?.cancel()
        taken.transport?.close()
        taken.binary?(.failure(error))
        for pending in taken.pending {
            pending.timer?.cancel()
            pending.completion(.failure(error))
        }
        if let report { onEvent(.lost(error, report)) }
    }
}
