import CastAuth
import CastNet

extension SessionEnvironment {
    /// The sender the platform connection (`sender-0` to `receiver-0`) announces in CONNECT.
    static let senderInfo = SenderInfo(sdkType: 2, version: "1.0", platform: 6, connectionType: 1)

    /// The first step on every connection to a device, a session's or a probe's: device
    /// authentication under ``CastOptions/deviceAuthentication``, then the warning (once per
    /// device) when the policy let an unauthenticated device through.
    /// - Returns: how the device authenticated (unauthenticated only when the policy allows).
    /// - Throws: ``CastError/Code/deviceAuthentication`` when the policy refuses the device.
    func authenticate(
        _ connection: DeviceConnection,
        device: CastDevice,
        host: String,
        port: Int
    ) async throws(CastError) -> DeviceAuthenticationResult {
        let result = try await DeviceAuthenticationStep(options: options, host: host, port: port).run(on: connection)
        if !result.isAuthenticated {
            unauthenticatedDevices.warnOnce(
                about: device.idText,
                logger: options.logger,
                metadata: [
                    "cast.address": "\(host):\(port)",
                    "cast.device-id": device.idText,
                    "cast.policy": "\(options.deviceAuthentication.mode)",
                    "cast.reason": result.unauthenticatedReason ?? "",
                    "cast.sends-secrets": "\(options.sendsSecretsToUnauthenticatedDevices)",
                ]
            )
        }
        return result
    }

    /// Opens the platform virtual connection (`sender-0` to `receiver-0`) with CONNECT.
    func connectToPlatform(on connection: DeviceConnection) throws(CastError) {
        try connection.send(
            ConnectMessage(origin: .object([:]), userAgent: options.userAgent, senderInfo: Self.senderInfo),
            namespace: .connection,
            from: DeviceConnection.platformSenderID,
            to: DeviceConnection.platformReceiverID
        )
    }
}

/// The device-auth exchange on one connection: challenge, then verify the reply against the
/// TLS certificate the device presented.
struct DeviceAuthenticationStep {
    var options: CastOptions
    var host: String
    var port: Int

    /// Runs the exchange.
    /// - Returns: how the device authenticated (unauthenticated only when the policy allows).
    /// - Throws: ``CastError/Code/deviceAuthentication`` when the policy refuses the device.
    func run(on connection: DeviceConnection) async throws(CastError) -> DeviceAuthenticationResult {
        let policy = options.deviceAuthentication
        guard policy.mode != .off else { return .unauthenticated("device authentication is off") }
        let authenticator: DeviceAuthenticator
        let challenge: DeviceAuthChallenge
        do {
            authenticator = try DeviceAuthenticator(policy: policy)
            challenge = try authenticator.makeChallenge()
        } catch {
            throw CastError(.deviceAuthentication, "device authentication could not start: \(error)", underlying: error)
        }
        let logger = options.logger
        guard let certificate = connection.peerCertificateDER else {
            logger.log(
                .error,
                .deviceAuth,
                "device presented no TLS certificate",
                metadata: ["cast.address": "\(host):\(port)"]
            )
            throw CastError(
                .deviceAuthentication,
                "device authentication: \(host):\(port) presented no TLS certificate"
            )
        }
        logger.log(
            .debug,
            .deviceAuth,
            "device auth challenge sent",
            metadata: ["cast.address": "\(host):\(port)", "cast.policy": "\(policy.mode)"]
        )
        do {
            let reply = try await connection.exchangeBinary(
                challenge.castMessage,
                timeout: options.deviceAuthenticationTimeout
            )
            let result = try authenticator.verify(
                replyPayload: reply,
                to: challenge,
                peerCertificateDER: certificate,
                at: options.currentDate()
            )
            if result.isAuthenticated {
                logger.log(.info, .deviceAuth, "device authenticated", metadata: ["cast.result": "\(result)"])
            }
            return result
        } catch let error as DeviceAuthError {
            logger.log(.error, .deviceAuth, "device authentication failed", metadata: ["cast.error": "\(error)"])
            throw CastError(
                .deviceAuthentication,
                "device authentication of \(host):\(port) failed: \(error)",
                underlying: error
            )
        } catch let error as CastError where error.code == .timeout {
            do {
                let result = try authenticator.timedOut(challenge)
                logger.log(.warning, .deviceAuth, "device auth reply timed out; allowed by the policy")
                return result
            } catch {
                logger.log(.error, .deviceAuth, "device auth reply timed out")
                throw CastError(
                    .deviceAuthentication,
                    "device authentication of \(host):\(port) timed out",
                    underlying: error
                )
            }
        } catch let error as CastError {
            throw error
        } catch {
            throw CastError(.deviceAuthentication, "device authentication failed: \(error)")
        }
    }
}
