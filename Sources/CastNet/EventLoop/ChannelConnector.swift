import CastNetCore
import CastTime

/// Opens channels: TCP connect, then a TLS handshake when asked; and the same for
/// accepted sockets. The result is an active channel with reading off and no handler.
enum ChannelConnector {
    /// Connects to `address` on `loop` and calls `completion` there once the channel is
    /// ready, or failed with a ``TCPError`` or ``TLSError``.
    static func connect(
        to address: SocketAddress,
        tls: TLSContext?,
        timeout: Duration,
        clock: any CastClock,
        loop: EventLoop,
        attempt: ConnectAttempt? = nil,
        completion: @escaping @Sendable (Result<any NetworkByteChannel, any Error>) -> Void
    ) {
        loop.execute {
            StreamChannel.connect(to: address, loop: loop, clock: clock, timeout: timeout, attempt: attempt) {
                result in
                switch result {
                case .failure(let error):
                    _ = attempt?.setAbort(nil)
                    completion(.failure(error))
                case .success(let channel):
                    secure(channel, tls: tls, clock: clock, attempt: attempt) { result in
                        _ = attempt?.setAbort(nil)
                        completion(result)
                    }
                }
            }
        }
    }

    /// Starts an accepted socket on its loop, with a TLS handshake when `tls` is set.
    static func activateAccepted(
        _ channel: StreamChannel,
        tls: TLSContext?,
        clock: any CastClock,
        completion: @escaping @Sendable (Result<any NetworkByteChannel, any Error>) -> Void
    ) {
        channel.loop.execute {
            do {
                try channel.startAccepted()
            } catch {
                completion(.failure(error))
                return
            }
            secure(channel, tls: tls, clock: clock, completion: completion)
        }
    }

    private static func secure(
        _ channel: StreamChannel,
        tls: TLSContext?,
        clock: any CastClock,
        attempt: ConnectAttempt? = nil,
        completion: @escaping @Sendable (Result<any NetworkByteChannel, any Error>) -> Void
    ) {
        let address = channel.remoteAddress?.description
        guard let tls else {
            if attempt?.setAbort(nil) == false {
                channel.close(error: nil)
                completion(.failure(ConnectAttempt.cancelledError(address)))
                return
            }
            completion(.success(channel))
            return
        }
        let engine: TLSEngine
        do {
            engine = try TLSEngine(context: tls)
        } catch {
            channel.close(error: error)
            completion(.failure(error))
            return
        }
        let secured = TLSChannel(base: channel, engine: engine, clock: clock)
        let loop = channel.loop
        // Abandoning the attempt during the handshake closes the socket at once.
        let abortable =
            attempt?.setAbort {
                loop.execute { secured.close(error: ConnectAttempt.cancelledError(address)) }
            } ?? true
        guard abortable else {
            channel.close(error: nil)
            completion(.failure(ConnectAttempt.cancelledError(address)))
            return
        }
        secured.start { result in
            completion(result.map { $0 as any NetworkByteChannel })
        }
    }
}
