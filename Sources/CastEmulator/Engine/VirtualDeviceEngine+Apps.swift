import CastCore
import CastTime

/// Messages to the running app: the media player and custom namespaces.
extension VirtualDeviceEngine {
    mutating func handleMedia(_ text: String, from sender: SenderEndpoint) -> [DeviceAction] {
        guard var player = application?.player else { return [] }
        var failNextLoad = faults.failsNextLoad
        let outputs = player.handle(text, from: sender, at: clock, failNextLoad: &failNextLoad)
        faults.failsNextLoad = failNextLoad
        application?.player = player
        return actions(for: outputs)
    }

    /// Turns the player's outputs into messages from the app's transport.
    func actions(for outputs: [MediaPlayerOutput]) -> [DeviceAction] {
        guard let transportID = application?.transportID else { return [] }
        var actions: [DeviceAction] = []
        for output in outputs {
            switch output {
            case .reply(let payload, let sender):
                guard connections[sender.connection] != nil else { continue }
                actions.append(
                    .send(Self.mediaMessage(payload, from: transportID, to: sender.senderID), to: sender.connection)
                )
            case .broadcast(let payload, let excluded):
                for id in connections.keys.sorted() {
                    for senderID in connections[id]?.senders(connectedTo: transportID) ?? [] {
                        guard SenderEndpoint(connection: id, senderID: senderID) != excluded else { continue }
                        actions.append(.send(Self.mediaMessage(payload, from: transportID, to: senderID), to: id))
                    }
                }
            case .log(let entry):
                actions.append(.log(entry))
            case .probe(let request):
                actions.append(.probeMedia(request))
            }
        }
        return actions
    }

    private static func mediaMessage(_ payload: String, from transportID: String, to senderID: String) -> CastMessage {
        CastMessage(sourceID: transportID, destinationID: senderID, namespace: .media, text: payload)
    }

    /// A custom-namespace message goes back to its sender unchanged, as the HelloWorld sample
    /// receiver does.
    func echo(_ message: CastMessage, from id: ConnectionID) -> [DeviceAction] {
        var reply = message
        reply.sourceID = message.destinationID
        reply.destinationID = message.sourceID
        reply.unknownFields = []
        return [
            .send(reply, to: id),
            .log(
                DeviceLogEntry(
                    level: .debug,
                    message: "custom message echoed",
                    metadata: id.metadata.merging(
                        ["cast.namespace": message.namespace.rawValue, "cast.source-id": message.sourceID],
                        uniquingKeysWith: { first, _ in first }
                    )
                )
            ),
        ]
    }
}

extension VirtualDeviceEngine {
    /// The device finished reading media for a ``DeviceAction/probeMedia(_:)`` request: the
    /// item plays with what the media told, or fails with the receiver's error code. An
    /// outcome for a probe a newer `LOAD` or a `STOP` replaced is ignored.
    mutating func mediaProbed(
        _ id: UInt64,
        outcome: Result<MediaProbeResult, MediaLoadFailure>,
        at now: DeviceInstant
    ) -> [DeviceAction] {
        var actions = begin(at: now)
        guard var player = application?.player else { return actions }
        let outputs = player.probeFinished(id, outcome: outcome, at: clock)
        application?.player = player
        actions += self.actions(for: outputs)
        return actions + advanceTimeline()
    }

    /// Whether the engine still waits for the outcome of probe `id`: `false` once a newer
    /// `LOAD`, a `STOP` or the end of its item made it useless.
    func isProbePending(_ id: UInt64) -> Bool {
        application?.player?.isProbePending(id) ?? false
    }

    /// Whether the device still reads the open-ended stream of probe `id`.
    func isFollowingStream(_ id: UInt64) -> Bool {
        application?.player?.isFollowingStream(id) ?? false
    }

    /// The open-ended stream of probe `id` ended after `mediaSeconds` of media: its item
    /// finishes once it has played them.
    mutating func mediaStreamEnded(_ id: UInt64, mediaSeconds: Double?, at now: DeviceInstant) -> [DeviceAction] {
        var actions = begin(at: now)
        guard var player = application?.player else { return actions }
        let outputs = player.streamEnded(id, mediaSeconds: mediaSeconds, at: clock)
        application?.player = player
        actions += self.actions(for: outputs)
        return actions + advanceTimeline()
    }
}
