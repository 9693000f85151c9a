import CastCore
import CastNet
import CastNetCore
import CastTime

extension VirtualDevice {
    /// Takes a sender's connection: the engine learns of it, then its frames flow.
    func adopt(_ transport: CastConnection) {
        let (clock, log, queueLimit) = (self.clock, self.log, options.sendQueueLimit)
        let connection = links.add { id in
            SenderLink(id: id, transport: transport, clock: clock, queueLimit: queueLimit) { message in
                log.record(message, connection: id, direction: .outbound)
            }
        }
        guard let connection else {
            transport.close(reason: "the device is stopping")
            return
        }
        let peer = transport.remoteAddress?.description ?? "unknown peer"
        log.record(connection.id, event: "connected from \(peer) (\(transport.tlsVersion ?? "no TLS"))")
        // The engine learns of the connection before its first frame can arrive: frames flow
        // only once the frame handler is set.
        let now = clock.now
        perform { state in state.engine.connectionOpened(ConnectionID(rawValue: UInt64(connection.id)), at: now) }
        transport.onClose { [weak self] error in
            self?.connectionEnded(connection, error: error)
        }
        transport.setFrameHandler { [weak self] body in
            self?.received(body, on: connection)
        }
    }

    /// One frame body from a sender: a `CastMessage` for the engine, or a reason to close.
    private func received(_ body: [UInt8], on connection: SenderLink) {
        let message: CastMessage
        do {
            message = try CastMessage(serializedBytes: body)
        } catch {
            log.record(connection.id, event: "closing: malformed CastMessage: \(error)")
            connection.close(reason: "malformed CastMessage")
            return
        }
        if let problem = Self.validityProblem(message) {
            log.record(connection.id, event: "closing: invalid CastMessage: \(problem)")
            connection.close(reason: "invalid CastMessage")
            return
        }
        log.record(message, connection: connection.id, direction: .inbound)
        let now = clock.now
        perform { state in
            state.engine.received(message, from: ConnectionID(rawValue: UInt64(connection.id)), at: now)
        }
    }

    /// Chromium's validity rule: non-empty IDs and namespace, and the payload that the
    /// payload type names.
    static func validityProblem(_ message: CastMessage) -> String? {
        if message.sourceID.isEmpty { return "empty source_id" }
        if message.destinationID.isEmpty { return "empty destination_id" }
        if message.namespace.rawValue.isEmpty { return "empty namespace" }
        switch message.payloadType {
        case .string where message.payloadUTF8 == nil: return "payload_type STRING without payload_utf8"
        case .binary where message.payloadBinary == nil: return "payload_type BINARY without payload_binary"
        default: return nil
        }
    }

    private func connectionEnded(_ connection: SenderLink, error: CastConnectionError?) {
        log.record(connection.id, event: "closed: \(error.map { "\($0.code): \($0.reason)" } ?? "orderly close")")
        let now = clock.now
        perform { [links] state in
            guard links.remove(connection.id) != nil else { return [] }
            return state.engine.connectionClosed(ConnectionID(rawValue: UInt64(connection.id)), at: now)
        }
    }
}
