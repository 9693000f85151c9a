import CastSync

/// Starting and ending: the connection to the device, its authentication and the platform
/// connection, the receiver status, and attaching to the receiver app (launched or joined,
/// see `CastSession+Launch`).
extension CastSession {
    func runStart() async {
        do {
            let connection = try await openConnection()
            let status = try await receiverStatus(on: connection)
            let criteria = environment.options.discoveryCriteria
            let launch = environment.options.launchOptions ?? LaunchOptions()
            let app: ReceiverApplication
            if let running = Self.joinableApplication(for: criteria, in: status), !launch.relaunchIfRunning {
                app = try await join(running, options: launch, on: connection)
            } else {
                app = try await self.launch(criteria.applicationID, options: launch, on: connection)
            }
            try await attach(app, on: connection)
            transition { $0.startSucceeded() }
            connectChannels()
        } catch {
            environment.options.logger.log(
                .error,
                .session,
                "session start failed",
                metadata: ["cast.error": "\(error)"]
            )
            transition { $0.startFailed(error) }
        }
    }

    func runEnd(stopReceiverApp: Bool) async {
        let (connection, app) = state.withLock { ($0.connection, $0.machine.application) }
        if let connection {
            if stopReceiverApp, let sessionID = app?.sessionID {
                _ = try? await connection.request(
                    name: "STOP",
                    namespace: .receiver,
                    from: DeviceConnection.platformSenderID,
                    to: DeviceConnection.platformReceiverID
                ) { StopApplicationRequest(requestID: $0, sessionID: sessionID) }
            }
            if let transportID = app?.transportID {
                try? connection.send(CloseMessage(), namespace: .connection, from: senderID, to: transportID)
            }
        }
        transition { $0.endCompleted() }
    }

    func openConnection() async throws(CastError) -> DeviceConnection {
        let options = environment.options
        let generation = state.withLock { state -> Int in
            state.generation += 1
            return state.generation
        }
        let route: @Sendable (DeviceConnectionEvent) -> Void = { [weak self] event in
            self?.handle(event, generation: generation)
        }
        // The connection that just checked this address, when the caller asked to keep it:
        // its platform virtual connection is open already.
        let adopted = environment.handover.take(host: host, port: port)
        let connection: DeviceConnection
        if let adopted {
            adopted.reroute(route)
            connection = adopted
            options.logger.log(
                .debug,
                .session,
                "adopted the checking connection",
                metadata: ["cast.address": "\(host):\(port)"]
            )
        } else {
            connection = try await DeviceConnection.open(
                host: host,
                port: port,
                connector: environment.connector,
                clock: environment.clock,
                logger: options.logger,
                heartbeatInterval: options.heartbeatInterval,
                heartbeatTimeout: options.heartbeatTimeout,
                requestTimeout: options.requestTimeout,
                onEvent: route
            )
        }
        let current = state.withLock { state -> Bool in
            guard state.generation == generation, state.machine.isActive else { return false }
            state.connection = connection
            return true
        }
        guard current else {
            connection.close()
            throw CastError(.cancelled, "the session ended while connecting to \(host):\(port)")
        }
        let authentication = try await environment.authenticate(connection, device: device, host: host, port: port)
        state.withLock { $0.machine.deviceAuthenticated(authentication) }
        if adopted == nil { try environment.connectToPlatform(on: connection) }
        return connection
    }

    func receiverStatus(on connection: DeviceConnection) async throws(CastError) -> ReceiverStatus {
        let reply = try await connection.request(
            name: "GET_STATUS",
            namespace: .receiver,
            from: DeviceConnection.platformSenderID,
            to: DeviceConnection.platformReceiverID
        ) { GetReceiverStatusRequest(requestID: $0) }
        guard case .receiver(.receiverStatus(let message)) = reply else {
            throw CastError(.invalidResponse, "GET_STATUS: the reply was not RECEIVER_STATUS")
        }
        apply(message.status, notify: false)
        return message.status
    }

    func attach(_ app: ReceiverApplication, on connection: DeviceConnection) async throws(CastError) {
        guard let transportID = app.transportID else {
            throw CastError(.invalidResponse, "the receiver app \(app.appID) has no transportId")
        }
        state.withLock { $0.machine.applicationAttached(app) }
        try connection.send(
            ConnectMessage(
                origin: .object([:]),
                userAgent: environment.options.userAgent,
                senderInfo: SessionEnvironment.senderInfo,
                connType: .strong
            ),
            namespace: .connection,
            from: senderID,
            to: transportID
        )
        remoteMediaClient.attach(
            RemoteMediaClient.Link(
                connection: connection,
                senderID: senderID,
                transportID: transportID,
                appSessionID: app.sessionID,
                sendsSecrets: sendsSecrets
            )
        )
        if app.supports(namespace: CastNamespace.media.rawValue) {
            _ = try await connection.request(
                name: "GET_STATUS",
                namespace: .media,
                from: senderID,
                to: transportID
            ) { GetMediaStatusRequest(requestID: $0, sessionID: app.sessionID) }
        }
    }
}
