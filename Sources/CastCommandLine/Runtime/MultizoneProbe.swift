import CastCore
import CastNet
import CastSender

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads and sets the members of a speaker group on the platform endpoint (`receiver-0`,
/// multizone namespace), without starting a session: listing a group's members or setting
/// one's volume must not launch an app on it.
enum MultizoneProbe {
    /// The group's members (or the speaker itself), from `MULTIZONE_STATUS`.
    /// - Throws: ``CommandLineError`` when the device cannot be reached or does not answer
    ///   within `timeout`.
    static func status(host: String, port: Int, timeout: Duration) async throws -> MultizoneStatus {
        try await exchange(
            host: host,
            port: port,
            timeout: timeout,
            request: #"{"type":"GET_STATUS","requestId":1}"#,
            what: "MULTIZONE_STATUS"
        ) { message in
            if case .multizoneStatus(let status) = message { return status.status.validated() }
            return nil
        }
    }

    /// Sets one member's level and/or mute and waits for the group's `DEVICE_UPDATED` for
    /// that member.
    /// - Returns: the member as the group reports it afterwards.
    static func setVolume(
        of member: MultizoneDevice,
        level: Double?,
        muted: Bool?,
        host: String,
        port: Int,
        timeout: Duration
    ) async throws -> MultizoneDevice {
        var volume: [String: JSONValue] = [:]
        if let level { volume["level"] = .double(level) }
        if let muted { volume["muted"] = .bool(muted) }
        let request: JSONValue = [
            "type": "SET_DEVICE_VOLUME", "requestId": 2, "deviceId": .string(member.deviceID),
            "volume": .object(volume),
        ]
        return try await exchange(
            host: host,
            port: port,
            timeout: timeout,
            request: request.description,
            what: "DEVICE_UPDATED for \(member.name ?? member.deviceID)"
        ) { message in
            guard case .deviceUpdated(let updated) = message, updated.device.deviceID == member.deviceID else {
                return nil
            }
            let device = updated.device.validated()
            let levelDone = level.map { wanted in device.volumeLevel.map { abs($0 - wanted) < 1e-6 } ?? false } ?? true
            let muteDone = muted.map { device.isMuted == $0 } ?? true
            return levelDone && muteDone ? device : nil
        }
    }

    private static func exchange<Result: Sendable>(
        host: String,
        port: Int,
        timeout: Duration,
        request: String,
        what: String,
        match: @escaping @Sendable (MultizoneMessage) -> Result?
    ) async throws -> Result {
        let connection: CastConnection
        do {
            connection = try await CastConnection.connect(to: SocketAddress(ipAddress: host, port: port))
        } catch {
            throw CommandLineError(.deviceNotFound, "cannot reach \(host):\(port): \(error)")
        }
        defer { connection.close() }
        for (namespace, text) in [
            (CastNamespace.connection, #"{"type":"CONNECT"}"#), (CastNamespace.multizone, request),
        ] {
            let message = CastMessage(
                sourceID: "sender-0",
                destinationID: "receiver-0",
                namespace: namespace,
                text: text
            )
            try connection.send(message.serializedBytes())
        }
        let reader = Task { () -> Result? in
            for try await frame in connection.frames {
                guard let message = try? CastMessage(serializedBytes: frame), message.namespace == .multizone,
                    let text = message.payloadUTF8, let decoded = try? MultizoneMessage(jsonString: text),
                    let result = match(decoded)
                else { continue }
                return result
            }
            return nil
        }
        let timer = Task {
            try await Task.sleep(for: timeout)
            connection.close(reason: "no \(what)")
        }
        defer { timer.cancel() }
        guard let result = try await reader.value else {
            throw CommandLineError(.requestFailed, "\(host):\(port) sent no \(what) within \(timeout)")
        }
        return result
    }
}
