import CastCore
import CastSync
import Dispatch

/// The session's requests to the platform receiver (`receiver-0`): receiver requests that
/// await their reply, and multizone requests the device answers by broadcast.
extension CastSession {
    var callbackQueue: DispatchQueue { environment.options.callbackQueue }
    var logger: CastLogger { environment.options.logger }

    /// Sends a multizone request to `receiver-0` that the device answers by broadcast: the
    /// request completes once the message is handed to the connection.
    func sendMultizone(_ name: String, _ build: (Int) -> JSONValue) -> CastRequest {
        guard let connection = state.withLock({ $0.machine.state == .connected ? $0.connection : nil }) else {
            return CastRequest.failed(
                name,
                CastError(.deviceNotConnected, "\(name): the session is not connected"),
                callbackQueue: callbackQueue
            )
        }
        let id = multizoneRequestID.withLock { id -> Int in
            defer { id += 1 }
            return id
        }
        let message = CastMessage(
            sourceID: DeviceConnection.platformSenderID,
            destinationID: DeviceConnection.platformReceiverID,
            namespace: .multizone,
            text: build(id).description
        )
        let request = CastRequest(name: name, requestID: id, callbackQueue: callbackQueue)
        do {
            try connection.send(message)
            request.settle(.completed)
        } catch {
            request.settle(.failed(error))
        }
        return request
    }

    func receiverRequest(_ name: String, _ build: @escaping (Int) -> any CastJSONMessage) -> CastRequest {
        let callbackQueue = environment.options.callbackQueue
        guard let connection = state.withLock({ $0.machine.state == .connected ? $0.connection : nil }) else {
            return CastRequest.failed(
                name,
                CastError(.deviceNotConnected, "\(name): the session is not connected"),
                callbackQueue: callbackQueue
            )
        }
        let request = CastRequest(name: name, callbackQueue: callbackQueue)
        let id = connection.sendRequest(
            name: name,
            namespace: .receiver,
            from: DeviceConnection.platformSenderID,
            to: DeviceConnection.platformReceiverID,
            build: build,
            completion: { request.settle(CastRequest.Outcome($0)) }
        )
        request.attach(requestID: id) { [weak connection] _ in connection?.cancelRequest(id) }
        return request
    }
}
