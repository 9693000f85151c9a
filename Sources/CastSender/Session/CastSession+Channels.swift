import CastSync

/// The app's channels: registered with the session, connected while the receiver app lists
/// their namespaces.
extension CastSession {
    /// Registers a channel; it connects now if the session is connected and the app lists
    /// its namespace, or later when that becomes true.
    public func add(_ channel: CastChannel) {
        let found = state.withLock { state -> CastChannel.Route? in
            state.channels[channel.protocolNamespace] = channel
            return self.route(for: channel.protocolNamespace, in: state)
        }
        if let found { channel.connect(found) }
    }

    /// Unregisters a channel and disconnects it.
    public func remove(_ channel: CastChannel) {
        let removed = state.withLock { state -> Bool in
            guard state.channels[channel.protocolNamespace] === channel else { return false }
            state.channels[channel.protocolNamespace] = nil
            return true
        }
        if removed { channel.disconnect() }
    }

    func route(for namespace: CastNamespace, in state: State) -> CastChannel.Route? {
        guard case .connected = state.machine.state, let connection = state.connection,
            let app = state.machine.application, let transportID = app.transportID,
            app.supports(namespace: namespace.rawValue)
        else { return nil }
        return CastChannel.Route(
            connection: connection,
            senderID: senderID,
            transportID: transportID,
            callbackQueue: environment.options.callbackQueue,
            logger: environment.options.logger
        )
    }

    /// Connects the channels whose namespaces the app lists (after the state reached connected).
    func connectChannels() {
        let routes = state.withLock { state in
            state.channels.values.compactMap { channel in
                route(for: channel.protocolNamespace, in: state).map { (channel, $0) }
            }
        }
        for (channel, route) in routes { channel.connect(route) }
    }
}
