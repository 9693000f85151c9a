package import CastCore
package import CastSender
package import CastSync
package import CastTestSupport
package import Dispatch
import Foundation

/// A scripted in-memory Cast device for end-to-end tests of the SDK: receiver and media
/// namespaces, a one-app model, queue item ids, broadcasts to every connection, an echo
/// namespace, and faults (stall, unanswered PINGs, refused connections, dropped links).
package final class FakeDevice: CastTransportConnector, Sendable {
    package static let echoNamespace = "urn:x-cast:com.example.echo"

    package struct App: Sendable {
        package var appID: String
        package var sessionID: String
        package var transportID: String
    }

    package struct State {
        package var app: App?
        package var appCounter = 0
        package var media: MediaStatus?
        package var nextMediaSessionID = 1
        package var nextItemID = 1
        package var volume = DeviceVolume(controlType: .attenuation, level: 0.5, muted: false, stepInterval: 0.05)
        package var received: [CastMessage] = []
        package var links: [FakeLink] = []
        package var stalled = false
        package var answersPings = true
        package var refusesConnections = false
        package var connectCount = 0
    }

    package let state = Locked(State())
    package let queue = DispatchQueue(label: "fake-device")
    /// Notified after each message the device handles or delivers, each connection attempt
    /// and each closed connection: what ``waitUntil(_:_:)`` checks its condition after.
    package let changes = ChangeSignal()

    /// Creates a device with no app running, at half volume.
    package init() {}

    // MARK: Inspection and faults

    package var received: [CastMessage] { state.withLock { $0.received } }

    package func received(type: String, namespace: CastNamespace) -> [String] {
        received.filter { $0.namespace == namespace }.compactMap(\.payloadUTF8).filter {
            $0.contains("\"type\":\"\(type)\"")
        }
    }

    package var media: MediaStatus? { state.withLock { $0.media } }
    package var app: App? { state.withLock { $0.app } }
    package var connectCount: Int { state.withLock { $0.connectCount } }
    /// The connections open now.
    package var openConnectionCount: Int { state.withLock { $0.links.count } }

    /// Waits until `condition` holds, checking it after each change of the device (a message
    /// handled or delivered, a connection opened or closed); a hang guard fails the wait.
    package func waitUntil(_ what: String, _ condition: @escaping @Sendable () -> Bool) async throws {
        try await changes.wait(until: what, condition)
    }

    package func set(stalled: Bool? = nil, answersPings: Bool? = nil, refusesConnections: Bool? = nil) {
        state.withLock { state in
            if let stalled { state.stalled = stalled }
            if let answersPings { state.answersPings = answersPings }
            if let refusesConnections { state.refusesConnections = refusesConnections }
        }
    }

    /// Answers `message` now on the newest connection, as a device that was stalled and
    /// catches up would (a late reply).
    package func answerLate(_ message: CastMessage) {
        let link = state.withLock { state -> FakeLink? in
            state.stalled = false
            return state.links.last
        }
        guard let link else { return }
        queue.async { [self] in handle(message, from: link) }
    }

    /// Drops every connection as if the network failed.
    package func dropConnections() {
        let links = state.withLock { state -> [FakeLink] in
            defer { state.links.removeAll() }
            return state.links
        }
        for link in links { link.drop() }
    }

    /// Stops the app as another sender would: CLOSE from the app, then a status broadcast.
    package func stopAppFromElsewhere() {
        queue.sync {
            let (app, links) = state.withLock { state -> (App?, [FakeLink]) in
                defer {
                    state.app = nil
                    state.media = nil
                }
                return (state.app, state.links)
            }
            guard let app else { return }
            for link in links {
                link.deliver(source: app.transportID, destination: "*", namespace: .connection, CloseMessage())
            }
            broadcastReceiverStatus(except: nil)
        }
    }

    // MARK: Connector

    package func connect(
        host: String,
        port: Int,
        onEvent: @escaping @Sendable (CastTransportEvent) -> Void
    ) async throws(CastError)
        -> any CastTransport
    {
        let refused = state.withLock { state -> Bool in
            state.connectCount += 1
            return state.refusesConnections
        }
        defer { changes.notify() }
        if refused { throw CastError(.network, "connection refused by the fake device") }
        let link = FakeLink(device: self, onEvent: onEvent)
        state.withLock { $0.links.append(link) }
        return link
    }

    package func unlink(_ link: FakeLink) {
        state.withLock { state in state.links.removeAll { $0 === link } }
        changes.notify()
    }

    // MARK: Behaviour

    package func handle(_ message: CastMessage, from link: FakeLink) {
        defer { changes.notify() }
        let stalled = state.withLock { state -> Bool in
            state.received.append(message)
            return state.stalled
        }
        guard !stalled, let text = message.payloadUTF8 else { return }
        let reply = { (namespace: CastNamespace, payload: any CastJSONMessage) in
            link.deliver(source: message.destinationID, destination: message.sourceID, namespace: namespace, payload)
        }
        switch message.namespace {
        case .heartbeat:
            if case .ping? = try? HeartbeatMessage(jsonString: text), state.withLock({ $0.answersPings }) {
                reply(.heartbeat, PongMessage())
            }
        case .receiver:
            guard let request = try? ReceiverMessage(jsonString: text) else { return }
            handleReceiver(request, reply: reply, link: link)
        case .media:
            guard let request = try? MediaMessage(jsonString: text) else { return }
            handleMedia(request, reply: reply, link: link)
        case CastNamespace(rawValue: Self.echoNamespace):
            link.deliver(
                CastMessage(
                    sourceID: message.destinationID,
                    destinationID: message.sourceID,
                    namespace: message.namespace,
                    text: "echo: " + text
                )
            )
        default:
            break
        }
    }

    package func receiverStatus(requestID: Int = 0) -> ReceiverStatusMessage {
        state.withLock { state in
            let apps = state.app.map { app in
                [
                    ReceiverApplication(
                        appID: app.appID,
                        displayName: "Fake Receiver",
                        namespaces: [
                            ApplicationNamespace(name: CastNamespace.media.rawValue),
                            ApplicationNamespace(name: Self.echoNamespace),
                        ],
                        sessionID: app.sessionID,
                        statusText: "Ready To Cast",
                        transportID: app.transportID
                    )
                ]
            }
            return ReceiverStatusMessage(
                requestID: requestID,
                status: ReceiverStatus(applications: apps ?? [], volume: state.volume)
            )
        }
    }

    private func broadcastReceiverStatus(except: FakeLink?) {
        let links = state.withLock { $0.links }
        for link in links where link !== except {
            link.deliver(source: "receiver-0", destination: "*", namespace: .receiver, receiverStatus())
        }
    }

    private func handleReceiver(
        _ request: ReceiverMessage,
        reply: (CastNamespace, any CastJSONMessage) -> Void,
        link: FakeLink
    ) {
        switch request {
        case .getStatus(let get):
            reply(.receiver, receiverStatus(requestID: get.requestID ?? 0))
        case .launch(let launch):
            state.withLock { state in
                if state.app?.appID != launch.appID {
                    state.appCounter += 1
                    state.app = App(
                        appID: launch.appID,
                        sessionID: "S-\(state.appCounter)",
                        transportID: "T-\(state.appCounter)"
                    )
                    state.media = nil
                }
            }
            reply(.receiver, receiverStatus(requestID: launch.requestID ?? 0))
            broadcastReceiverStatus(except: link)
        case .stop(let stop):
            let app = state.withLock { state -> App? in
                defer {
                    state.app = nil
                    state.media = nil
                }
                return state.app
            }
            reply(.receiver, receiverStatus(requestID: stop.requestID ?? 0))
            if let app {
                let links = state.withLock { $0.links }
                for other in links {
                    other.deliver(source: app.transportID, destination: "*", namespace: .connection, CloseMessage())
                }
            }
            broadcastReceiverStatus(except: link)
        case .setVolume(let set):
            state.withLock { state in
                if let level = set.volume.level { state.volume.level = level }
                if let muted = set.volume.muted { state.volume.muted = muted }
            }
            reply(.receiver, receiverStatus(requestID: set.requestID ?? 0))
            broadcastReceiverStatus(except: link)
        default:
            break
        }
    }

    private func handleMedia(
        _ request: MediaMessage,
        reply: (CastNamespace, any CastJSONMessage) -> Void,
        link: FakeLink
    ) {
        let requestID = request.requestID ?? 0
        if case .load(let load) = request {
            state.withLock { state in
                var items = load.data.queueData?.items ?? []
                for index in items.indices {
                    items[index].itemID = state.nextItemID
                    state.nextItemID += 1
                }
                let start = load.data.queueData?.startIndex ?? 0
                let media = load.data.media ?? (items.indices.contains(start) ? items[start].media : nil)
                state.media = MediaStatus(
                    mediaSessionID: state.nextMediaSessionID,
                    media: media,
                    playbackRate: load.data.playbackRate ?? 1,
                    playerState: load.data.autoplay == false ? .paused : .playing,
                    currentTime: load.data.currentTime ?? 0,
                    supportedMediaCommands: .allBasicMedia,
                    volume: Volume(level: 1, muted: false),
                    activeTrackIDs: load.data.activeTrackIDs,
                    currentItemID: items.indices.contains(start) ? items[start].itemID : nil,
                    items: items.isEmpty ? nil : items,
                    repeatMode: load.data.queueData?.repeatMode ?? .off
                )
                state.nextMediaSessionID += 1
            }
            sendMediaStatus(requestID, reply: reply, link: link)
            return
        }
        if case .getStatus = request {
            sendMediaStatus(requestID, reply: reply, link: link)
            return
        }
        let sessionID: Int? =
            switch request {
            case .sessionCommand(let command): command.mediaSessionID
            case .seek(let seek): seek.mediaSessionID
            case .setPlaybackRate(let rate): rate.mediaSessionID
            case .setVolume(let volume): volume.mediaSessionID
            case .editTracksInfo(let edit): edit.mediaSessionID
            case .queueInsert(let insert): insert.mediaSessionID
            case .queueUpdate(let update): update.mediaSessionID
            case .queueRemove(let remove): remove.mediaSessionID
            case .queueGetItems(let get): get.mediaSessionID
            default: nil
            }
        guard let sessionID, sessionID == state.withLock({ $0.media?.mediaSessionID }) else {
            reply(.media, InvalidRequestMessage(requestID: requestID, reason: .invalidMediaSessionID))
            return
        }
        var extra: (any CastJSONMessage)?
        state.withLock { state in
            guard var media = state.media else { return }
            switch request {
            case .sessionCommand(let command):
                switch command.type {
                case .play: media.playerState = .playing
                case .pause: media.playerState = .paused
                case .stop:
                    media.playerState = .idle
                    media.idleReason = .cancelled
                case .queueGetItemIDs:
                    extra = QueueItemIDsMessage(requestID: requestID, itemIDs: (media.items ?? []).compactMap(\.itemID))
                default: break
                }
            case .seek(let seek):
                media.currentTime = seek.currentTime ?? ((media.currentTime ?? 0) + (seek.relativeTime ?? 0))
                if seek.resumeState == .playbackPause { media.playerState = .paused }
                if seek.resumeState == .playbackStart { media.playerState = .playing }
            case .setPlaybackRate(let rate):
                media.playbackRate = rate.playbackRate ?? 1
            case .setVolume(let volume):
                media.volume = Volume(
                    level: volume.volume.level ?? media.volume?.level,
                    muted: volume.volume.muted ?? media.volume?.muted
                )
            case .editTracksInfo(let edit):
                if let ids = edit.activeTrackIDs { media.activeTrackIDs = ids }
            case .queueInsert(let insert):
                var items = media.items ?? []
                var position = insert.insertBefore.flatMap { id in items.firstIndex { $0.itemID == id } } ?? items.count
                for var item in insert.items {
                    item.itemID = state.nextItemID
                    state.nextItemID += 1
                    items.insert(item, at: position)
                    position += 1
                }
                media.items = items
            case .queueUpdate(let update):
                if let mode = update.repeatMode { media.repeatMode = mode }
                if let current = update.currentItemID { media.currentItemID = current }
                if let jump = update.jump, let items = media.items,
                    let index = items.firstIndex(where: { $0.itemID == media.currentItemID }),
                    items.indices.contains(index + jump)
                {
                    media.currentItemID = items[index + jump].itemID
                }
            case .queueGetItems(let get):
                extra = QueueItemsMessage(
                    requestID: requestID,
                    items: (media.items ?? []).filter { get.itemIDs.contains($0.itemID ?? -1) }
                )
            default:
                break
            }
            state.media = media
        }
        if let extra {
            reply(.media, extra)
        } else {
            sendMediaStatus(requestID, reply: reply, link: link)
        }
    }

    private func sendMediaStatus(_ requestID: Int, reply: (CastNamespace, any CastJSONMessage) -> Void, link: FakeLink)
    {
        let (status, links, transport) = state.withLock { state in
            (state.media.map { [$0] } ?? [], state.links, state.app?.transportID ?? "T")
        }
        reply(.media, MediaStatusMessage(requestID: requestID, status: status))
        for other in links where other !== link {
            other.deliver(
                source: transport,
                destination: "*",
                namespace: .media,
                MediaStatusMessage(requestID: 0, status: status)
            )
        }
    }
}

/// One in-memory connection to a ``FakeDevice``.
package final class FakeLink: CastTransport, Sendable {
    private let device: FakeDevice
    private let onEvent: @Sendable (CastTransportEvent) -> Void
    private let closed = Locked(false)

    package init(device: FakeDevice, onEvent: @escaping @Sendable (CastTransportEvent) -> Void) {
        self.device = device
        self.onEvent = onEvent
    }

    package var peerCertificateDER: [UInt8]? { nil }

    package func send(_ message: CastMessage) throws(CastError) {
        guard !closed.withLock({ $0 }) else { throw CastError(.network, "fake link closed") }
        device.queue.async { [self] in
            guard !closed.withLock({ $0 }) else { return }
            device.handle(message, from: self)
        }
    }

    package func close() {
        guard
            closed.withLock({ value in
                defer { value = true }
                return !value
            })
        else { return }
        device.unlink(self)
        device.queue.async { [onEvent, device] in
            onEvent(.closed(nil))
            device.changes.notify()
        }
    }

    package func drop() {
        guard
            closed.withLock({ value in
                defer { value = true }
                return !value
            })
        else { return }
        device.queue.async { [onEvent, device] in
            onEvent(.closed(CastError(.network, "connection reset")))
            device.changes.notify()
        }
    }

    package func deliver(_ message: CastMessage) {
        device.queue.async { [self] in
            guard !closed.withLock({ $0 }) else { return }
            onEvent(.message(message))
            device.changes.notify()
        }
    }

    package func deliver(source: String, destination: String, namespace: CastNamespace, _ payload: any CastJSONMessage)
    {
        guard let text = try? payload.jsonString() else { return }
        deliver(CastMessage(sourceID: source, destinationID: destination, namespace: namespace, text: text))
    }
}
