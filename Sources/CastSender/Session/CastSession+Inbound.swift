import CastSync

/// What the device sends the session: receiver statuses, media messages for the
/// ``RemoteMediaClient``, app messages for the channels, and the loss of the connection.
extension CastSession {
    func handle(_ event: DeviceConnectionEvent, generation: Int) {
        guard state.withLock({ $0.generation == generation }) else { return }
        switch event {
        case .receiverStatus(let status):
            apply(status, notify: true)
        case .media(let message, _):
            remoteMediaClient.receive(message)
        case .closeFrom(let source):
            let ours = state.withLock { $0.machine.isApplicationTransport(source) }
            if ours {
                transition {
                    $0.applicationStopped(
                        CastError(.applicationNotRunning, "the receiver app closed the connection (\(source))")
                    )
                }
            }
        case .custom(let namespace, let source, let text)
        where namespace == .multizone
            && source == DeviceConnection.platformReceiverID:
            receiveMultizone(text)
            // A channel the app registered on the namespace still hears it.
            let channel = state.withLock { $0.channels[namespace] }
            channel?.deliver(text)
        case .custom(let namespace, _, let text):
            let channel = state.withLock { $0.channels[namespace] }
            channel?.deliver(text)
        case .lost(let error, let reason):
            environment.options.logger.log(.info, .session, "connection lost", metadata: ["cast.error": error.reason])
            transition { $0.connectionLost(reason, error: error) }
        }
    }

    func apply(_ received: ReceiverStatus, notify: Bool) {
        let appID = environment.options.receiverApplicationID
        let (status, clamped) = received.clampingWireNumbers()
        if !clamped.isEmpty {
            environment.options.logger.log(
                .warning,
                .session,
                "receiver volume out of range, clamped",
                metadata: [
                    "cast.volume-level": received.volume?.level.map { "\($0)" } ?? "none",
                    "cast.fields": clamped.joined(separator: ","),
                ]
            )
        }
        let change = state.withLock { $0.machine.receiverStatusReceived(status, receiverApplicationID: appID) }
        if notify {
            if let volume = change.volume {
                deviceSink(
                    SessionEvent(.didReceiveDeviceVolume(self, volume: volume.level ?? 0, muted: volume.muted ?? false))
                )
            }
            if let text = change.statusText {
                deviceSink(SessionEvent(.didReceiveDeviceStatus(self, statusText: text)))
            }
        }
        if change.applicationStopped {
            transition {
                $0.applicationStopped(
                    CastError(.applicationNotRunning, "the receiver app was stopped (by another sender or the device)")
                )
            }
        } else if notify {
            connectChannels()
        }
    }
}
