import CastNet

extension SessionManager {
    /// Reads the receiver status of `device` (its running apps, its volume, whether it is
    /// the active input or in standby) without starting a session or launching an app.
    ///
    /// The call opens its own connection, authenticates the device under
    /// ``CastOptions/deviceAuthentication`` as a session would, sends `GET_STATUS`, and
    /// closes the connection; the current session, if any, is not touched. A volume out of
    /// range is brought into range as the session does.
    /// - Parameters:
    ///   - device: the device; its first address and its port are used unless given.
    ///   - host: the address to connect to, overriding the device's.
    ///   - port: the port to connect to, overriding the device's.
    ///   - timeout: the bound on the whole exchange, connecting included; by default
    ///     ``CastOptions/requestTimeout``.
    /// - Returns: the `status` of the device's `RECEIVER_STATUS`.
    /// - Throws: ``CastError``: ``CastError/Code/timeout`` when the device did not answer in
    ///   time, ``CastError/Code/deviceAuthentication`` when the policy refuses it,
    ///   ``CastError/Code/network`` when it cannot be reached, ``CastError/Code/cancelled``
    ///   when the task was cancelled.
    public func receiverStatus(
        of device: CastDevice,
        host: String? = nil,
        port: Int? = nil,
        timeout: Duration? = nil
    ) async throws(CastError) -> ReceiverStatus {
        let probe = try probe(device, host: host, port: port, call: "receiverStatus")
        let logger = environment.options.logger
        return try await probe.run("GET_STATUS", timeout: timeout ?? environment.options.requestTimeout) {
            connection throws(CastError) in
            let reply = try await connection.request(
                name: "GET_STATUS",
                namespace: .receiver,
                from: DeviceConnection.platformSenderID,
                to: DeviceConnection.platformReceiverID
            ) { GetReceiverStatusRequest(requestID: $0) }
            guard case .receiver(.receiverStatus(let message)) = reply else {
                throw CastError(.invalidResponse, "GET_STATUS: the reply was not RECEIVER_STATUS")
            }
            let (status, clamped) = message.status.clampingWireNumbers()
            if !clamped.isEmpty {
                logger.log(
                    .warning,
                    .session,
                    "receiver volume out of range, clamped",
                    metadata: [
                        "cast.volume-level": message.status.volume?.level.map { "\($0)" } ?? "none",
                        "cast.fields": clamped.joined(separator: ","),
                    ]
                )
            }
            return status
        }
    }

    /// Asks `device` which of `applicationIDs` it can run (`GET_APP_AVAILABILITY`), without
    /// starting a session or launching an app.
    ///
    /// The connection, authentication and bound are those of
    /// ``receiverStatus(of:host:port:timeout:)``.
    /// - Parameters:
    ///   - applicationIDs: the receiver application ids to ask about (at least one).
    ///   - device: the device; its first address and its port are used unless given.
    ///   - host: the address to connect to, overriding the device's.
    ///   - port: the port to connect to, overriding the device's.
    ///   - timeout: the bound on the whole exchange; by default ``CastOptions/requestTimeout``.
    /// - Returns: the availability the device reported for each id it answered about (ids
    ///   it did not name are absent; ids not asked about are dropped).
    /// - Throws: ``CastError`` as ``receiverStatus(of:host:port:timeout:)``, and
    ///   ``CastError/Code/invalidRequest`` for an empty list.
    public func applicationAvailability(
        of applicationIDs: [String],
        on device: CastDevice,
        host: String? = nil,
        port: Int? = nil,
        timeout: Duration? = nil
    ) async throws(CastError) -> [String: AppAvailability] {
        guard !applicationIDs.isEmpty else {
            throw CastError(.invalidRequest, "applicationAvailability: no application ids to ask about")
        }
        let probe = try probe(device, host: host, port: port, call: "applicationAvailability")
        let asked = Set(applicationIDs)
        return try await probe.run("GET_APP_AVAILABILITY", timeout: timeout ?? environment.options.requestTimeout) {
            connection throws(CastError) in
            let reply = try await connection.request(
                name: "GET_APP_AVAILABILITY",
                namespace: .receiver,
                from: DeviceConnection.platformSenderID,
                to: DeviceConnection.platformReceiverID
            ) { GetAppAvailabilityRequest(requestID: $0, appID: applicationIDs) }
            guard case .receiver(.appAvailability(let message)) = reply else {
                throw CastError(.invalidResponse, "GET_APP_AVAILABILITY: the reply was not an availability answer")
            }
            return message.availability.filter { asked.contains($0.key) }
        }
    }

    private func probe(_ device: CastDevice, host: String?, port: Int?, call: String) throws(CastError) -> DeviceProbe {
        guard let address = host ?? device.addresses.first?.description else {
            throw CastError(.invalidRequest, "\(call): device \(device.idText) has no address")
        }
        return DeviceProbe(environment: environment, device: device, host: address, port: port ?? Int(device.port))
    }
}
