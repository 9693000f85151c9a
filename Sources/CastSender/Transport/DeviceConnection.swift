import CastSync
import CastTime

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
/// State sits in one `Locked`; completions and events run after the lock is released. The
/// requests in flight live in one ``RequestTracker``, and one timer is armed for the earliest
/// of their deadlines: when it fires, the requests due time out (in deadline order) and the
/// timer is armed again for the next deadline.
final class DeviceConnection: Sendable {
    typealias Completion = @Sendable (Result<InboundReply, CastError>) -> Void

    static let platformSenderID = "sender-0"
    static let platformReceiverID = "receiver-0"

    /// What the tracker keeps for each request in flight.
    private struct Pending: Sendable {
        var name: String
        var namespace: CastNamespace
        var completion: Completion
    }

    /// The timer armed for the earliest deadline of the requests in flight.
    private struct DeadlineTimer {
        var deadline: CastInstant
        /// Tells a timer that fires after being replaced from the current one.
        var generation: Int
        /// `nil` while the timer is being scheduled, outside the lock.
        var timer: CastTimer?
    }

    private struct State {
        var tracker = RequestTracker<Pending>()
        var deadlineTimer: DeadlineTimer?
        var timerGenerations = 0
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
    var pendingRequestCount: Int { state.withLock { $0.tracker.count } }

    private let clock: any CastClock
    private let logger: CastLogger
    private let requestTimeout: Duration
    /// Where events go; replaced once when a session adopts a connection opened to check a
    /// device (``ConnectionHandover``).
    private let route: Locked<EventRoute>

    /// The handler inside a struct: a function value held directly as `Locked`'s generic state
    /// is re-abstracted each time `withLock` passes it `inout`, which wraps it in two more
    /// thunks on every event, until the nested calls overflow the stack.
    private struct EventRoute {
        var handler: @Sendable (DeviceConnectionEvent) -> Void
    }

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
        route = Locked(EventRoute(handler: onEvent))
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

    /// Sends every later event to `onEvent` (a session adopting a parked connection).
    func reroute(_ onEvent: @escaping @Sendable (DeviceConnectionEvent) -> Void) {
        route.withLock { $0.handler = onEvent }
    }

    private func onEvent(_ event: DeviceConnectionEvent) {
        route.withLock { $0.handler }(event)
    }

    var peerCertificateDER: [UInt8]? { state.withLock { $0.transport?.peerCertificateDER } }

    var isClosed: Bool { state.withLock { $0.closed } }

    /// The executor of the thread this connection's events arrive on, if it has one.
    var taskExecutor: (any TaskExecutor)? { state.withLock { $0.transport }?.taskExecutor }

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
        let begun = state.withLock { state -> (id: Int, replaced: [Pending], rearm: Rearm)? in
            guard !state.closed, state.transport != nil else { return nil }
            let (id, replaced) = state.tracker.begin(
                replacementGroup: replacementGroup,
                deadline: now.advanced(by: deadlineDelay),
                payload: Pending(name: name, namespace: namespace, completion: completion)
            )
            return (id, replaced.map(\.payload), Self.rearm(&state))
        }
        guard let begun else {
            completion(.failure(CastError(.deviceNotConnected, "\(name) was not sent: not connected to the device")))
            return CastRequest.invalidRequestID
        }
        perform(begun.rearm, now: now)
        for replaced in begun.replaced {
            replaced.completion(.failure(CastError(.replaced, "\(replaced.name) was replaced by \(name)")))
        }
        let id = begun.id
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
        let (pending, rearm) = state.withLock { state -> (Pending?, Rearm) in
            let entry = state.tracker.cancel(id)
            return (entry?.payload, Self.rearm(&state))
        }
        perform(rearm)
        guard let pending else { return }
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
        guard let id = message.requestID, id > 0 else { return }
        if case .launchStatus = message { return }
        let name = state.withLock { $0.tracker.payload(of: id)?.name } ?? "request"
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
        guard let id = message.requestID, id > 0 else { return }
        let name = state.withLock { $0.tracker.payload(of: id)?.name } ?? "request"
        if let error = CastError.mediaReply(message, request: name) {
            settle(id, .failure(error))
        } else {
            settle(id, .success(.media(message)))
        }
    }

    private func settle(_ id: Int, _ result: Result<InboundReply, CastError>) {
        let (pending, rearm) = state.withLock { state -> (Pending?, Rearm) in
            let entry = state.tracker.settle(id)
            return (entry?.payload, Self.rearm(&state))
        }
        perform(rearm)
        guard let pending else { return }
        pending.completion(result)
    }

    /// The deadline timer fired: every request due times out, earliest deadline first (ties
    /// in the order they were sent), and the timer is armed for the next deadline.
    private func expire(generation: Int) {
        let now = clock.now
        let (expired, rearm) = state.withLock { state -> ([Pending], Rearm) in
            if state.deadlineTimer?.generation == generation { state.deadlineTimer = nil }
            let due = state.tracker.expire(now: now).enumerated().sorted {
                ($0.element.deadline, $0.offset) < ($1.element.deadline, $1.offset)
            }
            return (due.map(\.element.payload), Self.rearm(&state))
        }
        perform(rearm, now: now)
        for pending in expired {
            logger.log(.info, .connection, "request timed out", metadata: ["cast.request": pending.name])
            pending.completion(
                .failure(CastError(.timeout, "\(pending.name) on \(pending.namespace) got no reply in time"))
            )
        }
    }

    // MARK: Timers

    /// What keeping the deadline timer on the earliest deadline takes, decided under the lock
    /// and done after it.
    private struct Rearm {
        var cancel: CastTimer?
        /// The deadline and generation of a timer to schedule.
        var schedule: (deadline: CastInstant, generation: Int)?
    }

    /// Brings the deadline timer in line with the earliest deadline in flight: a timer for a
    /// later (or no) deadline is replaced; one already armed for it is kept.
    private static func rearm(_ state: inout State) -> Rearm {
        let wanted = state.closed ? nil : state.tracker.nextDeadline
        if let armed = state.deadlineTimer, armed.deadline == wanted { return Rearm() }
        var rearm = Rearm(cancel: state.deadlineTimer?.timer)
        state.deadlineTimer = nil
        if let wanted {
            state.timerGenerations += 1
            state.deadlineTimer = DeadlineTimer(deadline: wanted, generation: state.timerGenerations)
            rearm.schedule = (wanted, state.timerGenerations)
        }
        return rearm
    }

    private func perform(_ rearm: Rearm, now: CastInstant? = nil) {
        rearm.cancel?.cancel()
        guard let (deadline, generation) = rearm.schedule else { return }
        let delay = max(.zero, (now ?? clock.now).duration(to: deadline))
        let timer = scheduleTimer(after: delay) { [weak self] in self?.expire(generation: generation) }
        let current = state.withLock { state -> Bool in
            guard state.deadlineTimer?.generation == generation else { return false }
            state.deadlineTimer?.timer = timer
            return true
        }
        if !current { timer.cancel() }
    }

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
            state -> (
                transport: (any CastTransport)?, pending: [Pending], timers: [CastTimer], binary: Completion?
            )? in
            guard !state.closed else { return nil }
            state.closed = true
            state.heartbeat.stop()
            let pending = state.tracker.drain().map(\.payload)
            let timers = [state.heartbeatTimer, state.deadlineTimer?.timer].compactMap { $0 }
            defer {
                state.transport = nil
                state.heartbeatTimer = nil
                state.deadlineTimer = nil
                state.binaryWaiter = nil
            }
            return (state.transport, pending, timers, state.binaryWaiter)
        }
        guard let taken else { return }
        for timer in taken.timers { timer.cancel() }
        taken.transport?.close()
        taken.binary?(.failure(error))
        for pending in taken.pending {
            pending.completion(.failure(error))
        }
        if let report { onEvent(.lost(error, report)) }
    }
}
