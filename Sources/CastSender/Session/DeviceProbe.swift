import CastNet
import CastSync
import CastTime

/// One short connection that reads a device's receiver state and closes: no session, no
/// LAUNCH, nothing left running on the device.
///
/// It connects, authenticates under the same policy as a session, opens the platform
/// virtual connection, runs its requests and closes. One deadline on the context's clock
/// bounds the whole exchange (connecting and authenticating included); when it passes, the
/// connection closes and the call throws ``CastError/Code/timeout``.
struct DeviceProbe: Sendable {
    var environment: SessionEnvironment
    var device: CastDevice
    var host: String
    var port: Int

    /// Runs `body` on a fresh authenticated connection and closes it.
    /// - Parameters:
    ///   - operation: what the caller reads, for error messages (`GET_STATUS`).
    ///   - timeout: the bound on the whole exchange.
    ///   - body: the requests; it runs after CONNECT to `receiver-0`.
    /// - Throws: ``CastError``: ``CastError/Code/timeout`` past the deadline,
    ///   ``CastError/Code/cancelled`` when the task was cancelled, else why connecting,
    ///   authenticating or `body` failed.
    func run<Value: Sendable>(
        _ operation: String,
        timeout: Duration,
        _ body: @escaping @Sendable (DeviceConnection) async throws(CastError) -> Value
    ) async throws(CastError) -> Value {
        let race = Race<Value>()
        let result = await withTaskCancellationHandler {
            await withHandOffContinuation { (continuation: HandOffContinuation<Result<Value, CastError>>) in
                guard race.install(continuation) else { return }
                let deadline = environment.clock.schedule(after: timeout) { [host, port] in
                    race.finish(
                        .failure(CastError(.timeout, "\(operation): \(host):\(port) did not answer within \(timeout)"))
                    )
                }
                let task = Task { race.finish(await attempt(timeout: timeout, race: race, body)) }
                race.attach(deadline: deadline, task: task)
            }
        } onCancel: {
            race.finish(.failure(CastError(.cancelled, "\(operation) on \(host):\(port) was cancelled")))
        }
        return try result.get()
    }

    private func attempt<Value: Sendable>(
        timeout: Duration,
        race: Race<Value>,
        _ body: @Sendable (DeviceConnection) async throws(CastError) -> Value
    ) async -> Result<Value, CastError> {
        let options = environment.options
        let connection: DeviceConnection
        do {
            connection = try await DeviceConnection.open(
                host: host,
                port: port,
                connector: environment.connector,
                clock: environment.clock,
                logger: options.logger,
                heartbeatInterval: options.heartbeatInterval,
                heartbeatTimeout: options.heartbeatTimeout,
                requestTimeout: timeout
            ) { _ in }
        } catch {
            return .failure(error)
        }
        // A deadline or a cancellation that came while connecting closes the connection now;
        // one that comes later closes it through the race.
        guard race.adopt(connection) else {
            connection.close()
            return .failure(CastError(.cancelled, "the probe of \(host):\(port) ended while connecting"))
        }
        defer {
            try? connection.send(
                CloseMessage(),
                namespace: .connection,
                from: DeviceConnection.platformSenderID,
                to: DeviceConnection.platformReceiverID
            )
            connection.close()
        }
        do throws(CastError) {
            _ = try await environment.authenticate(connection, device: device, host: host, port: port)
            try environment.connectToPlatform(on: connection)
            return .success(try await body(connection))
        } catch {
            return .failure(error)
        }
    }
}

extension DeviceProbe {
    /// The first of the outcome, the deadline and a cancellation: it resumes the caller,
    /// and the others find the race over.
    final class Race<Value: Sendable>: Sendable {
        private struct State {
            var continuation: HandOffContinuation<Result<Value, CastError>>?
            var outcome: Result<Value, CastError>?
            var connection: DeviceConnection?
            var deadline: CastTimer?
            var task: Task<Void, Never>?
        }

        private let state = Locked(State())

        /// Installs the caller's continuation; returns `false` (after resuming it) when the
        /// race is already over (the task was cancelled first).
        func install(_ continuation: HandOffContinuation<Result<Value, CastError>>) -> Bool {
            let outcome = state.withLock { state -> Result<Value, CastError>? in
                if let outcome = state.outcome { return outcome }
                state.continuation = continuation
                return nil
            }
            guard let outcome else { return true }
            continuation.resume(returning: outcome)
            return false
        }

        func attach(deadline: CastTimer, task: Task<Void, Never>) {
            let over = state.withLock { state -> Bool in
                guard state.outcome == nil else { return true }
                state.deadline = deadline
                state.task = task
                return false
            }
            if over {
                deadline.cancel()
                task.cancel()
            }
        }

        /// Hands the open connection to the race; returns `false` when the race is over.
        func adopt(_ connection: DeviceConnection) -> Bool {
            state.withLock { state -> Bool in
                guard state.outcome == nil else { return false }
                state.connection = connection
                return true
            }
        }

        /// Ends the race with `outcome` unless it is over; a failure closes the connection,
        /// failing whatever request is still waiting on it.
        func finish(_ outcome: Result<Value, CastError>) {
            let taken = state.withLock { state -> State? in
                guard state.outcome == nil else { return nil }
                state.outcome = outcome
                defer {
                    state.continuation = nil
                    state.connection = nil
                    state.deadline = nil
                    state.task = nil
                }
                return state
            }
            guard let taken else { return }
            taken.deadline?.cancel()
            if case .failure(let error) = outcome {
                taken.task?.cancel()
                taken.connection?.close(failingWith: error)
            }
            taken.continuation?.resume(returning: outcome)
        }
    }
}
