import CastCrypto
import CastNet
import CastNetCore
import CastSync
import CastTime

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
        return Self.transport(over: connection, host: host, port: port, onEvent: onEvent)
    }

    /// The transport over an open `connection` to `host`:`port`: inbound frames decoded into
    /// `CastMessage`s for `onEvent`, then the close. A frame that is no `CastMessage` closes
    /// the connection as the device's protocol violation.
    static func transport(
        over connection: CastConnection,
        host: String,
        port: Int,
        onEvent: @escaping @Sendable (CastTransportEvent) -> Void
    ) -> TLSTransport {
        let transport = TLSTransport(connection: connection)
        let violation = Locked<CastError?>(nil)
        connection.setFrameHandler { body in
            do {
                onEvent(.message(try CastMessage(serializedBytes: body)))
            } catch {
                violation.withLock { stored in
                    if stored == nil {
                        stored = CastError(
                            .protocolError,
                            "\(host):\(port) sent a \(body.count)-byte frame that is not a CastMessage: \(error)",
                            underlying: error
                        )
                    }
                }
                connection.close(reason: "undecodable CastMessage")
            }
        }
        connection.onClose { error in
            let reported = violation.withLock { $0 } ?? error.map { Self.castError($0, host: host, port: port) }
            onEvent(.closed(reported))
        }
        return transport
    }
}

extension TLSTransportConnector {
    /// The SDK error for a connection the transport closed: broken framing is the device's
    /// protocol violation, a stalled frame a timeout, anything else a network failure.
    static func castError(_ error: CastConnectionError, host: String, port: Int) -> CastError {
        switch error.code {
        case .framing, .truncatedFrame:
            CastError(.protocolError, "\(host):\(port) broke the framing: \(error.reason)", underlying: error)
        case .frameTimeout:
            CastError(.timeout, "\(host):\(port) stalled in the middle of a frame: \(error.reason)", underlying: error)
        default:
            CastError(.network, "connection to \(host):\(port) closed: \(error)", underlying: error)
        }
    }
}

/// A ``CastTransport`` over one ``CastConnection``.
final class TLSTransport: CastTransport {
    let connection: CastConnection

    init(connection: CastConnection) {
        self.connection = connection
    }

    var peerCertificateDER: [UInt8]? { connection.peerCertificate?.derBytes }

    var taskExecutor: (any TaskExecutor)? { connection.taskExecutor }

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

    func scheduleTimer(
        after delay: Duration,
        on clock: any CastClock,
        _ action: @escaping @Sendable () -> Void
    ) -> CastTimer {
        connection.scheduleTimer(after: delay, on: clock, action)
    }
}
