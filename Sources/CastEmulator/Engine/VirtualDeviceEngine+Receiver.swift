import CastCore

/// The platform receiver (`urn:x-cast:com.google.cast.receiver` on `receiver-0`): status,
/// launching and stopping apps, device volume.
extension VirtualDeviceEngine {
    mutating func handleReceiver(_ text: String, from sender: SenderEndpoint) -> [DeviceAction] {
        let request: ReceiverMessage
        do {
            request = try ReceiverMessage(jsonString: text)
        } catch {
            return malformedReceiverRequest(text, error: error, from: sender)
        }
        let requestID = request.requestID ?? 0
        switch request {
        case .getStatus:
            return [receiverStatusReply(requestID, to: sender)]
        case .launch(let launch):
            return self.launch(launch, requestID: requestID, from: sender)
        case .stop(let stop):
            return self.stop(sessionID: stop.sessionID, requestID: requestID, from: sender)
        case .setVolume(let request):
            return setDeviceVolume(request.volume, requestID: requestID, from: sender)
        case .getAppAvailability(let request):
            let availability = Dictionary(
                request.appID.map { appID -> (String, AppAvailability) in
                    (appID, configuration.application(withID: appID) == nil ? .unavailable : .available)
                },
                uniquingKeysWith: { first, _ in first }
            )
            return [
                receiverReply(AppAvailabilityResponse(requestID: requestID, availability: availability), to: sender)
            ]
        default:
            return [
                receiverReply(InvalidRequestMessage(requestID: requestID, reason: .invalidCommand), to: sender),
                .log(
                    DeviceLogEntry(
                        level: .warning,
                        message: "unsupported receiver request",
                        metadata: ["cast.type": request.type.rawValue, "cast.source-id": sender.senderID]
                    )
                ),
            ]
        }
    }

    private func malformedReceiverRequest(
        _ text: String,
        error: MessageDecodingError,
        from sender: SenderEndpoint
    ) -> [DeviceAction] {
        let log = DeviceAction.log(
            DeviceLogEntry(
                level: .warning,
                message: "malformed receiver request",
                metadata: ["cast.source-id": sender.senderID, "cast.reason": "\(error)"]
            )
        )
        guard let value = try? JSONValue(parsing: text), value.objectValue != nil else { return [log] }
        let requestID = value["requestId"]?.intValue ?? 0
        switch value["type"]?.stringValue {
        case CastMessageType.launch.rawValue:
            return [receiverReply(LaunchErrorMessage(requestID: requestID, reason: .badParameter), to: sender), log]
        case nil:
            return [
                receiverReply(InvalidRequestMessage(requestID: requestID, reason: .invalidCommand), to: sender), log,
            ]
        default:
            return [
                receiverReply(InvalidRequestMessage(requestID: requestID, reason: .invalidParams), to: sender), log,
            ]
        }
    }

    func receiverReply(_ message: some CastJSONMessage, to sender: SenderEndpoint) -> DeviceAction {
        send(message, from: Self.platformID, to: sender, namespace: .receiver)
    }

    func receiverStatusReply(_ requestID: Int, to sender: SenderEndpoint) -> DeviceAction {
        receiverReply(ReceiverStatusMessage(requestID: requestID, status: receiverStatus), to: sender)
    }

    /// `RECEIVER_STATUS` with request id 0 for every sender connected to `receiver-0`, and
    /// with `requestId` for `requester` when given.
    func receiverStatusUpdate(requestID: Int, requester: SenderEndpoint?) -> [DeviceAction] {
        let payload = StatusPayload(ReceiverStatusMessage(requestID: 0, status: receiverStatus))
        func message(_ text: String, to senderID: String) -> CastMessage {
            CastMessage(sourceID: Self.platformID, destinationID: senderID, namespace: .receiver, text: text)
        }
        var actions: [DeviceAction] = []
        if let requester {
            actions.append(
                .send(message(payload.reply(requestID: requestID), to: requester.senderID), to: requester.connection)
            )
        }
        for id in connections.keys.sorted() {
            for senderID in connections[id]?.senders(connectedTo: Self.platformID) ?? [] {
                guard SenderEndpoint(connection: id, senderID: senderID) != requester else { continue }
                actions.append(.send(message(payload.broadcast, to: senderID), to: id))
            }
        }
        return actions
    }

    // MARK: Applications

    private mutating func launch(_ launch: LaunchRequest, requestID: Int, from sender: SenderEndpoint) -> [DeviceAction]
    {
        func launchError(_ reason: LaunchErrorReason) -> [DeviceAction] {
            [
                receiverReply(LaunchErrorMessage(requestID: requestID, reason: reason), to: sender),
                .log(
                    DeviceLogEntry(
                        level: .info,
                        message: "launch refused",
                        metadata: ["cast.app-id": launch.appID, "cast.reason": reason.rawValue]
                    )
                ),
            ]
        }
        if let refusal = faults.launchRefusal { return launchError(refusal) }
        guard !launch.appID.isEmpty else { return launchError(.badParameter) }
        guard let definition = configuration.application(withID: launch.appID) else { return launchError(.notFound) }
        var actions: [DeviceAction] = []
        let credentials = launch.appParams?.launchCheckerParams?.credentialsData
        if let credentials {
            actions.append(
                .log(
                    DeviceLogEntry(
                        level: .info,
                        message: "launch credentials received",
                        metadata: [
                            "cast.app-id": launch.appID,
                            "cast.credentials": credentials.credentials ?? "",
                            "cast.credentials-type": credentials.credentialsType ?? "",
                        ]
                    )
                )
            )
        }
        if application?.definition.appID == definition.appID {
            if let credentials {
                application?.launchCredentials = credentials
                application?.player?.settings.launchCredentials = credentials
            }
            return actions + [receiverStatusReply(requestID, to: sender)]
        }
        let androidTV = definition.androidTV != nil && (launch.supportedAppTypes ?? []).contains(.androidTV)
        // A TV in standby wakes and switches to the Cast input for a launch, as on hardware.
        if inputState != nil { inputState = DeviceInputState(isActiveInput: true, isStandBy: false) }
        actions += leaveGroupPlayback()
        actions += stopApplication()
        startApplication(definition, appType: androidTV ? .androidTV : .web, launchCredentials: credentials)
        actions.append(
            .log(
                DeviceLogEntry(
                    level: .info,
                    message: "application launched",
                    metadata: ["cast.app-id": definition.appID, "cast.app-type": androidTV ? "ANDROID_TV" : "WEB"]
                )
            )
        )
        return actions + receiverStatusUpdate(requestID: requestID, requester: sender) + [
            .appsChanged, .receiverStatusChanged,
        ]
    }

    private mutating func stop(sessionID: String?, requestID: Int, from sender: SenderEndpoint) -> [DeviceAction] {
        // A member playing in its group's session stops following it.
        if let follower = multizone.follower, application?.definition.isIdleScreen ?? true,
            sessionID == nil || sessionID == follower.sessionID
        {
            return leaveGroupPlayback() + receiverStatusUpdate(requestID: requestID, requester: sender) + [
                .appsChanged, .receiverStatusChanged,
            ]
        }
        guard let running = application else {
            guard sessionID == nil else {
                return [
                    receiverReply(InvalidRequestMessage(requestID: requestID, reason: .invalidSessionID), to: sender)
                ]
            }
            return [receiverStatusReply(requestID, to: sender)]
        }
        if let sessionID, sessionID != running.sessionID {
            return [receiverReply(InvalidRequestMessage(requestID: requestID, reason: .invalidSessionID), to: sender)]
        }
        if running.definition.isIdleScreen {
            return [receiverStatusReply(requestID, to: sender)]
        }
        let actions = stopApplication()
        startIdleScreen()
        return actions + receiverStatusUpdate(requestID: requestID, requester: sender) + [
            .appsChanged, .receiverStatusChanged,
        ]
    }

    private mutating func setDeviceVolume(
        _ volume: Volume,
        requestID: Int,
        from sender: SenderEndpoint
    )
        -> [DeviceAction]
    {
        guard volume.level != nil || volume.muted != nil else {
            return [receiverReply(InvalidRequestMessage(requestID: requestID, reason: .invalidParams), to: sender)]
        }
        if multizone.isGroup { return setGroupVolume(volume, requestID: requestID, from: sender) }
        let before = deviceVolume
        // A fixed volume belongs to the TV or amplifier: real dongles ignore SET_VOLUME whole.
        guard configuration.volumeControlType != .fixed else {
            return [
                receiverStatusReply(requestID, to: sender),
                .log(
                    DeviceLogEntry(
                        level: .info,
                        message: "volume is fixed: SET_VOLUME ignored",
                        metadata: ["cast.source-id": sender.senderID]
                    )
                ),
            ]
        }
        if let level = volume.level, level.isFinite {
            deviceVolume.level = min(max(level, 0), 1)
        }
        if let muted = volume.muted {
            deviceVolume.muted = muted
        }
        guard deviceVolume != before else { return [receiverStatusReply(requestID, to: sender)] }
        return receiverStatusUpdate(requestID: requestID, requester: sender) + [
            .receiverStatusChanged, .multizone(.volumeChanged(deviceVolume)),
        ]
    }

    /// Launches an app with fresh ids; the caller stopped the previous one.
    mutating func startApplication(
        _ definition: ReceiverAppDefinition,
        appType: AppType,
        launchCredentials: CredentialsData?
    ) {
        var player: MediaPlayer?
        if definition.hasMediaPlayer {
            let settings = MediaPlayerSettings(
                bufferingDelay: configuration.bufferingDelay,
                defaultMediaDuration: configuration.defaultMediaDuration,
                statusInterval: configuration.statusInterval.flatMap { $0 > .zero ? $0 : nil },
                defaultBreakClipDuration: configuration.defaultBreakClipDuration,
                unloadableContentMarkers: configuration.unloadableContentMarkers,
                maximumQueueItems: configuration.maximumQueueItems,
                reportsCredentials: definition.androidTV != nil,
                appType: appType,
                launchCredentials: launchCredentials,
                statusShape: MediaStatusShape(profile: configuration.profile),
                mediaMode: configuration.mediaMode
            )
            player = MediaPlayer(settings: settings, seed: identifiers.next())
        }
        application = RunningApplication(
            definition: definition,
            appType: appType,
            sessionID: identifiers.uuidString(),
            transportID: identifiers.uuidString(),
            launchCredentials: launchCredentials,
            player: player
        )
    }

    /// Starts the idle screen, when the configuration names one that exists.
    mutating func startIdleScreen() {
        guard let appID = configuration.idleScreenAppID, let definition = configuration.application(withID: appID)
        else {
            application = nil
            return
        }
        startApplication(definition, appType: .web, launchCredentials: nil)
    }

    /// Stops the running app: `CLOSE` from its transport to every sender connected to it.
    mutating func stopApplication() -> [DeviceAction] {
        guard let running = application else { return [] }
        var actions: [DeviceAction] = []
        for id in connections.keys.sorted() {
            for senderID in connections[id]?.senders(connectedTo: running.transportID) ?? [] {
                let sender = SenderEndpoint(connection: id, senderID: senderID)
                actions.append(send(CloseMessage(), from: running.transportID, to: sender, namespace: .connection))
            }
            connections[id]?.removeVirtualConnections(to: running.transportID)
        }
        application = nil
        actions.append(
            .log(
                DeviceLogEntry(
                    level: .info,
                    message: "application stopped",
                    metadata: ["cast.app-id": running.definition.appID]
                )
            )
        )
        return actions
    }
}
