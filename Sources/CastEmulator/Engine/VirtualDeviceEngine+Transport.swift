import CastCore
import CastTime

/// Routing, virtual connections, heartbeats and device authentication.
extension VirtualDeviceEngine {
    /// Sends a message to the handler of its namespace and destination.
    mutating func route(_ message: CastMessage, from id: ConnectionID) -> [DeviceAction] {
        switch message.namespace {
        case .connection:
            let connectedBefore = runningApplication?.senderConnected
            return handleConnection(message, from: id) + senderConnectedUpdate(since: connectedBefore)
        case .heartbeat: return handleHeartbeat(message, from: id)
        case .deviceAuth: return handleDeviceAuth(message, from: id)
        default: break
        }
        let destination = message.destinationID
        guard connections[id]?.isConnected(message.sourceID, to: destination) == true else {
            return [dropped(message, from: id, reason: "no virtual connection")]
        }
        guard let text = Self.text(of: message) else {
            return [dropped(message, from: id, reason: "payload is not text")]
        }
        let sender = SenderEndpoint(connection: id, senderID: message.sourceID)
        if destination == Self.platformID {
            if message.namespace == .multizone, configuration.profile.supportsMultizone {
                return handleMultizone(text, from: sender)
            }
            guard message.namespace == .receiver else {
                return [dropped(message, from: id, reason: "namespace not handled")]
            }
            return handleReceiver(text, from: sender)
        }
        guard let running = application, destination == running.transportID else {
            return [dropped(message, from: id, reason: "unknown destination")]
        }
        guard running.definition.handles(message.namespace) else {
            return [dropped(message, from: id, reason: "namespace not handled by the application")]
        }
        if message.namespace == .media, running.player != nil {
            return handleMedia(text, from: sender)
        }
        if message.namespace == .media || message.namespace == ReceiverAppDefinition.playerMessageNamespace {
            return [dropped(message, from: id, reason: "namespace not handled by the application")]
        }
        return echo(message, from: id)
    }

    /// The text of a JSON namespace message; binary payloads count when they are UTF-8.
    static func text(of message: CastMessage) -> String? {
        if message.payloadType == .string { return message.payloadUTF8 }
        guard message.payloadType == .binary, let bytes = message.payloadBinary else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    func dropped(_ message: CastMessage, from id: ConnectionID, reason: String) -> DeviceAction {
        .log(
            DeviceLogEntry(
                level: .warning,
                message: "message dropped",
                metadata: id.metadata.merging(
                    [
                        "cast.source-id": message.sourceID,
                        "cast.destination-id": message.destinationID,
                        "cast.namespace": message.namespace.rawValue,
                        "cast.reason": reason,
                    ],
                    uniquingKeysWith: { first, _ in first }
                )
            )
        )
    }

    func send(
        _ payload: some CastJSONMessage,
        from source: String,
        to sender: SenderEndpoint,
        namespace: CastNamespace
    )
        -> DeviceAction
    {
        let text = MediaPlayer.encode(payload)
        return .send(
            CastMessage(sourceID: source, destinationID: sender.senderID, namespace: namespace, text: text),
            to: sender.connection
        )
    }

    /// The longest sender id a virtual connection may have (we chose it: ids senders use are
    /// `sender-0`, `client-12345`, a UUID).
    static let maximumSenderIDLength = 256

    // MARK: tp.connection

    private mutating func handleConnection(_ message: CastMessage, from id: ConnectionID) -> [DeviceAction] {
        guard let text = Self.text(of: message), let decoded = try? ConnectionMessage(jsonString: text) else {
            return [dropped(message, from: id, reason: "malformed connection message")]
        }
        let sender = SenderEndpoint(connection: id, senderID: message.sourceID)
        let endpoint = message.destinationID
        switch decoded {
        case .connect(let connect):
            // Every frame to this sender carries its id: a longer one could take the device's
            // statuses over the frame size. Not answered (a CLOSE would be as long).
            guard sender.senderID.utf8.count <= Self.maximumSenderIDLength else {
                return [dropped(message, from: id, reason: "sender id over \(Self.maximumSenderIDLength) bytes")]
            }
            let known = endpoint == Self.platformID || endpoint == application?.transportID
            let validType = connect.connType.map { (0...2).contains($0.rawValue) } ?? true
            guard known, validType else {
                return [
                    send(CloseMessage(), from: endpoint, to: sender, namespace: .connection),
                    dropped(message, from: id, reason: known ? "invalid connection type" : "unknown destination"),
                ]
            }
            if connections[id]?.isConnected(sender.senderID, to: endpoint) == false {
                guard
                    (connections[id]?.virtualConnections.count ?? 0)
                        < configuration.maximumVirtualConnectionsPerConnection
                else {
                    return [
                        send(CloseMessage(), from: endpoint, to: sender, namespace: .connection),
                        dropped(message, from: id, reason: "too many virtual connections"),
                    ]
                }
                connections[id]?.virtualConnections.append(
                    SenderConnection.VirtualConnection(
                        senderID: sender.senderID,
                        endpointID: endpoint,
                        type: connect.connType ?? .strong
                    )
                )
            }
            var actions: [DeviceAction] = [
                .log(
                    DeviceLogEntry(
                        level: .debug,
                        message: "virtual connection opened",
                        metadata: id.metadata.merging(
                            ["cast.source-id": sender.senderID, "cast.destination-id": endpoint],
                            uniquingKeysWith: { first, _ in first }
                        )
                    )
                )
            ]
            if let offered = connect.protocolVersionList ?? connect.protocolVersion.map({ [$0] }) {
                let version = offered.filter(Self.supportedProtocolVersions.contains).max() ?? 0
                actions.append(
                    send(ConnectedMessage(protocolVersion: version), from: endpoint, to: sender, namespace: .connection)
                )
            }
            return actions
        case .close:
            connections[id]?.virtualConnections.removeAll {
                $0.senderID == sender.senderID && $0.endpointID == endpoint
            }
            return [
                .log(
                    DeviceLogEntry(
                        level: .debug,
                        message: "virtual connection closed",
                        metadata: id.metadata.merging(
                            ["cast.source-id": sender.senderID, "cast.destination-id": endpoint],
                            uniquingKeysWith: { first, _ in first }
                        )
                    )
                )
            ]
        case .connected, .unknown:
            return [dropped(message, from: id, reason: "unexpected connection message")]
        }
    }

    /// The protocol versions the device accepts in `CONNECT`: `CASTV2_1_0`, and
    /// `CASTV2_1_3` (binary payloads on JSON namespaces are read as UTF-8). Chunking
    /// (`CASTV2_1_1`, `CASTV2_1_2`) is not supported.
    static let supportedProtocolVersions: Set<Int> = [0, 3]

    // MARK: tp.heartbeat

    private func handleHeartbeat(_ message: CastMessage, from id: ConnectionID) -> [DeviceAction] {
        guard let text = Self.text(of: message), let decoded = try? HeartbeatMessage(jsonString: text) else {
            return [dropped(message, from: id, reason: "malformed heartbeat message")]
        }
        switch decoded {
        case .ping:
            guard !faults.ignoresPings else {
                return [.log(DeviceLogEntry(level: .debug, message: "ping ignored by fault", metadata: id.metadata))]
            }
            let sender = SenderEndpoint(connection: id, senderID: message.sourceID)
            return [send(PongMessage(), from: message.destinationID, to: sender, namespace: .heartbeat)]
        case .pong:
            return []
        case .unknown:
            return [dropped(message, from: id, reason: "unexpected heartbeat message")]
        }
    }

    /// Pings silent connections and closes those silent for longer than the liveness window.
    mutating func checkHeartbeats() -> [DeviceAction] {
        var actions: [DeviceAction] = []
        for id in connections.keys.sorted() {
            guard var connection = connections[id] else { continue }
            if let timeout = livenessTimeout, clock >= connection.lastReceived + timeout {
                connections[id] = nil
                actions.append(.close(id, reason: .livenessTimeout))
                actions.append(.log(DeviceLogEntry(level: .info, message: "sender timed out", metadata: id.metadata)))
                continue
            }
            if let interval = pingInterval, clock >= connection.nextPing(interval: interval) {
                let senderID = connection.senders(connectedTo: Self.platformID).first ?? "sender-0"
                actions.append(
                    send(
                        PingMessage(),
                        from: Self.platformID,
                        to: SenderEndpoint(connection: id, senderID: senderID),
                        namespace: .heartbeat
                    )
                )
                connection.lastPingSent = clock
                connections[id] = connection
            }
        }
        return actions
    }

    // MARK: tp.deviceauth

    private func handleDeviceAuth(_ message: CastMessage, from id: ConnectionID) -> [DeviceAction] {
        guard message.payloadType == .binary, let bytes = message.payloadBinary,
            let decoded = try? DeviceAuthMessage(serializedBytes: bytes),
            let challenge = decoded.challenge, decoded.response == nil, decoded.error == nil
        else {
            return [dropped(message, from: id, reason: "not a device-auth challenge")]
        }
        let context = DeviceAuthentication.Context(
            tlsCertificateDER: tlsCertificateDER,
            audioOnly: !configuration.identity.capabilities.contains(.videoOut)
        )
        let answer = configuration.deviceAuthentication.answer(challenge, context)
        let reply = CastMessage(
            sourceID: message.destinationID,
            destinationID: message.sourceID,
            namespace: .deviceAuth,
            binary: answer.serializedBytes()
        )
        let outcome = answer.response != nil ? "response" : "error"
        return [
            .send(reply, to: id),
            .log(
                DeviceLogEntry(
                    level: .debug,
                    message: "device-auth challenge answered",
                    metadata: id.metadata.merging(["cast.outcome": outcome], uniquingKeysWith: { first, _ in first })
                )
            ),
        ]
    }
}
