import CastCore
import CastNet
import Foundation

/// Asks a device which receiver apps run, without starting a session (the SDK's session
/// start launches the app when it is not running, which a control command must not do).
enum ReceiverProbe {
    /// The IDs of the apps the device runs.
    /// - Throws: when the device cannot be reached or does not answer within `timeout`.
    static func runningApplicationIDs(host: String, port: Int, timeout: Duration = .seconds(5)) async throws -> [String]
    {
        let connection = try await CastConnection.connect(to: SocketAddress(ipAddress: host, port: port))
        defer { connection.close() }
        let connect = CastMessage(
            sourceID: "sender-0",
            destinationID: "receiver-0",
            namespace: .connection,
            text: #"{"type":"CONNECT"}"#
        )
        let status = CastMessage(
            sourceID: "sender-0",
            destinationID: "receiver-0",
            namespace: .receiver,
            text: #"{"type":"GET_STATUS","requestId":1}"#
        )
        try connection.send(connect.serializedBytes())
        try connection.send(status.serializedBytes())
        let reader = Task { () -> [String]? in
            for try await frame in connection.frames {
                guard let message = try? CastMessage(serializedBytes: frame), message.namespace == .receiver,
                    let text = message.payloadUTF8,
                    let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                    object["type"] as? String == "RECEIVER_STATUS"
                else { continue }
                let apps = (object["status"] as? [String: Any])?["applications"] as? [[String: Any]] ?? []
                return apps.compactMap { $0["appId"] as? String }
            }
            return nil
        }
        let timer = Task {
            try await Task.sleep(for: timeout)
            connection.close(reason: "no RECEIVER_STATUS")
        }
        defer { timer.cancel() }
        guard let apps = try await reader.value else {
            throw CommandLineError(.deviceNotFound, "\(host):\(port) did not answer GET_STATUS")
        }
        return apps
    }

    /// The device's `RECEIVER_STATUS` (its apps and its own volume), decoded as the SDK
    /// decodes it.
    /// - Throws: when the device cannot be reached or does not answer within `timeout`.
    static func receiverStatus(host: String, port: Int, timeout: Duration = .seconds(5)) async throws -> ReceiverStatus
    {
        let connection = try await CastConnection.connect(to: SocketAddress(ipAddress: host, port: port))
        defer { connection.close() }
        for (namespace, text) in [
            (CastNamespace.connection, #"{"type":"CONNECT"}"#),
            (CastNamespace.receiver, #"{"type":"GET_STATUS","requestId":1}"#),
        ] {
            let message = CastMessage(
                sourceID: "sender-0",
                destinationID: "receiver-0",
                namespace: namespace,
                text: text
            )
            try connection.send(message.serializedBytes())
        }
        let reader = Task { () -> ReceiverStatus? in
            for try await frame in connection.frames {
                guard let message = try? CastMessage(serializedBytes: frame), message.namespace == .receiver,
                    let text = message.payloadUTF8,
                    case .receiverStatus(let status) = try? ReceiverMessage(jsonString: text)
                else { continue }
                return status.status
            }
            return nil
        }
        let timer = Task {
            try await Task.sleep(for: timeout)
            connection.close(reason: "no RECEIVER_STATUS")
        }
        defer { timer.cancel() }
        guard let status = try await reader.value else {
            throw CommandLineError(.deviceNotFound, "\(host):\(port) did not answer GET_STATUS")
        }
        return status
    }
}
