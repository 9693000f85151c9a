import CastSync

/// The receiver app: launched, or joined when it already runs, with the launch credentials
/// only for a device that may have them.
extension CastSession {
    func launch(
        _ appID: String,
        options: LaunchOptions,
        on connection: DeviceConnection
    ) async throws(CastError)
        -> ReceiverApplication
    {
        let credentials = environment.launchCredentials()
        if credentials != nil { try withholdingSecrets("LAUNCH of \(appID)") }
        let request = LaunchRequest(
            appID: appID,
            language: options.languageCode,
            supportedAppTypes: options.supportedAppTypes,
            appParams: credentials.map {
                LaunchRequest.AppParams(launchCheckerParams: LaunchRequest.LaunchCheckerParams(credentialsData: $0))
            },
            senderDeviceName: environment.options.senderDeviceName
        )
        environment.options.logger.log(.info, .session, "launching app", metadata: ["cast.app-id": appID])
        let reply = try await connection.request(
            name: "LAUNCH",
            namespace: .receiver,
            from: DeviceConnection.platformSenderID,
            to: DeviceConnection.platformReceiverID,
            timeout: environment.options.launchTimeout
        ) { id in
            var launch = request
            launch.requestID = id
            return launch
        }
        guard case .receiver(.receiverStatus(let message)) = reply,
            let app = Self.application(appID, in: message.status)
        else {
            throw CastError(.applicationNotRunning, "LAUNCH of \(appID): the receiver status does not list the app")
        }
        return app
    }

    /// Throws ``CastError/Code/secretsWithheld`` when the launch credentials may not go to
    /// this device (it did not authenticate and the app did not allow it).
    func withholdingSecrets(_ operation: String) throws(CastError) {
        guard !sendsSecrets else { return }
        environment.options.logger.log(
            .error,
            .session,
            "launch credentials withheld from an unauthenticated device",
            metadata: ["cast.address": "\(host):\(port)", "cast.operation": operation]
        )
        throw CastError(
            .secretsWithheld,
            "\(operation): the launch credentials are not sent to \(host):\(port), which did not authenticate "
                + "(allow it with CastOptions.sendsSecretsToUnauthenticatedDevices)"
        )
    }

    static func application(_ appID: String, in status: ReceiverStatus) -> ReceiverApplication? {
        status.applications?.first { ($0.appID == appID || $0.universalAppID == appID) && $0.transportID != nil }
    }

    static func joinableApplication(
        for criteria: DiscoveryCriteria,
        in status: ReceiverStatus
    ) -> ReceiverApplication? {
        status.applications?.first { $0.transportID != nil && criteria.allowsJoining($0) }
    }

    /// Joins a running app. With launch credentials set, Cast Connect receivers expect them
    /// on a join as on a launch: a LAUNCH for the running app's ID carrying
    /// `appParams.launchCheckerParams.credentialsData`. The platform does not restart an app
    /// for a LAUNCH of its own ID: it hands the request to the app as a join (the Android TV
    /// app's `CastLaunchRequest` is "a request to launch or join") and answers with the
    /// RECEIVER_STATUS of the same session. Without credentials nothing is sent before the
    /// app's CONNECT.
    func join(
        _ running: ReceiverApplication,
        options: LaunchOptions,
        on connection: DeviceConnection
    ) async throws(CastError) -> ReceiverApplication {
        let logger = environment.options.logger
        guard let credentials = environment.launchCredentials() else {
            logger.log(.info, .session, "joining running app", metadata: ["cast.app-id": running.appID])
            return running
        }
        try withholdingSecrets("joining \(running.appID)")
        logger.log(
            .info,
            .session,
            "joining running app with launch credentials",
            metadata: ["cast.app-id": running.appID, "cast.credentials-type": credentials.credentialsType ?? ""]
        )
        let request = LaunchRequest(
            appID: running.appID,
            language: options.languageCode,
            supportedAppTypes: options.supportedAppTypes,
            appParams: LaunchRequest.AppParams(
                launchCheckerParams: LaunchRequest.LaunchCheckerParams(credentialsData: credentials)
            ),
            senderDeviceName: environment.options.senderDeviceName
        )
        let reply = try await connection.request(
            name: "LAUNCH",
            namespace: .receiver,
            from: DeviceConnection.platformSenderID,
            to: DeviceConnection.platformReceiverID,
            timeout: environment.options.launchTimeout
        ) { id in
            var join = request
            join.requestID = id
            return join
        }
        guard case .receiver(.receiverStatus(let message)) = reply,
            let app = message.status.applications?.first(where: {
                $0.transportID != nil && ($0.appID == running.appID || $0.universalAppID == running.appID)
            })
        else {
            throw CastError(
                .applicationNotRunning,
                "joining \(running.appID) with credentials: the receiver status does not list the app"
            )
        }
        if app.sessionID != running.sessionID {
            logger.log(
                .warning,
                .session,
                "the receiver restarted the app to join it",
                metadata: ["cast.app-id": running.appID, "cast.session-id": app.sessionID ?? ""]
            )
        }
        return app
    }
}
