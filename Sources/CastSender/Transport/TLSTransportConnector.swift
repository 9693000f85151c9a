import CastNet

/// Connects to devices over TLS with ``CastNet``'s framed ``CastConnection``.
struct TLSTransportConnector: CastTransportConnector {
    var configuration = CastConnectionConfiguration()
    var clock: any CastClock

    func connect(
        host: String,
        port: Int,
        onEvent: @escaping @Sendable (CastTransportEvent) -> Void
    ) async throws(CastError) -> any CastTransport {
        let address: SocketAddress
        do { address = try SocketAddress(ipAddress: host, port: port) } catch {
            throw CastError(.invalidRequest, "'\(host)' is not an IP address: \(error)", underlying: error)
        }
        let connection: CastConnection
        do {
            connection = try await CastConnection.connect(to: address, configuration: configuration, clock: clock)
        } catch {
            throw CastError(.network, "cannot connect to \(host):\(port): \(error)")
        }
        let transport = TLSTransport(connection: connection)
        connection.setFrameHandler { body in
            do {
                onEvent(.message(try CastMessage(serializedBytes: body)))
            } catch {
                connection.close(reason: "undecodable CastMessage")
            }
        }
        connection.onClose { error in
            onEvent(.closed(error.map { CastError(.network, "connection closed: \($0)", underlying: $0) }))
        }
        return transport
    }
}

/// A ``CastTransport`` over one ``CastConnection``.
final class TLSTransport: CastTransport {
    let connection: CastConnection

    init(connection: CastConnection) {
        self.connection = connection
    }

    var peerCertificateDER: [UInt8]? { connection.peerCertificate?.derBytes }

    func send(_ message: CastMessage) throws(CastError) {
        do {
            try connection.send(message.serializedBytes())
        } catch {
            let code: CastError.Code = error.code == .messageTooLarge ? .messageTooBig : .network
            throw CastError(code, "cannot send on \(message.namespace): \(error)", underlying: error)
        }
    }

    func close() {
        connection.close(reason: "closed by the sender")
    }
}
