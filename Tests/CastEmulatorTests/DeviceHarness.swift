import CastCore
import CastEmulator
import CastTime
import Testing

/// Drives a ``VirtualDeviceEngine`` with a manual clock and decodes what it sends.
struct DeviceHarness {
    var engine: VirtualDeviceEngine
    var now: DeviceInstant = .zero
    /// Whether ``advance(by:)`` answers the device's PINGs, as live senders do.
    var answersPings = true

    static let defaultSeed: UInt64 = 42

    init(_ configure: (inout VirtualDeviceConfiguration) -> Void = { _ in }) {
        var configuration = VirtualDeviceConfiguration(
            identity: DeviceIdentity(friendlyName: "Test TV", deviceID: "0123456789abcdef0123456789abcdef"),
            randomSeed: Self.defaultSeed
        )
        configure(&configuration)
        engine = VirtualDeviceEngine(configuration: configuration, at: .zero)
    }

    // MARK: Events

    @discardableResult
    mutating func open(_ connection: ConnectionID = 1) -> [DeviceAction] {
        engine.connectionOpened(connection, at: now)
    }

    @discardableResult
    mutating func send(
        _ json: String,
        namespace: CastNamespace,
        from source: String = "sender-0",
        to destination: String = "receiver-0",
        on connection: ConnectionID = 1
    ) -> [DeviceAction] {
        let message = CastMessage(sourceID: source, destinationID: destination, namespace: namespace, text: json)
        return engine.received(message, from: connection, at: now)
    }

    @discardableResult
    mutating func send(raw message: CastMessage, on connection: ConnectionID = 1) -> [DeviceAction] {
        engine.received(message, from: connection, at: now)
    }

    /// Moves the clock forward, ticking at every deadline on the way.
    @discardableResult
    mutating func advance(by duration: Duration) -> [DeviceAction] {
        let target = now + duration
        var actions: [DeviceAction] = []
        var guardCount = 0
        while let deadline = engine.nextDeadline, deadline <= target {
            guardCount += 1
            #expect(guardCount < 10_000, "deadlines do not move forward")
            if guardCount >= 10_000 { break }
            now = max(now, deadline)
            actions += answeringPings(engine.tick(at: now))
        }
        now = target
        actions += answeringPings(engine.tick(at: now))
        return actions
    }

    private mutating func answeringPings(_ actions: [DeviceAction]) -> [DeviceAction] {
        guard answersPings else { return actions }
        var all = actions
        for (connection, message) in actions.sent
        where message.namespace == .heartbeat && message.json?["type"] == "PING" {
            let pong = CastMessage(
                sourceID: message.destinationID,
                destinationID: message.sourceID,
                namespace: .heartbeat,
                text: #"{"type":"PONG"}"#
            )
            all += engine.received(pong, from: connection, at: now)
        }
        return all
    }

    // MARK: Common sequences

    /// `CONNECT` to `receiver-0`, as pychromecast opens a connection.
    @discardableResult
    mutating func connectPlatform(_ connection: ConnectionID = 1, sender: String = "sender-0") -> [DeviceAction] {
        send(
            #"{"type":"CONNECT","origin":{},"userAgent":"PyChromecast","senderInfo":{"sdkType":2,"platform":4}}"#,
            namespace: .connection,
            from: sender,
            on: connection
        )
    }

    /// Launches `appId` and returns its transport and session ids.
    mutating func launch(
        _ appID: String = "CC1AD845",
        on connection: ConnectionID = 1,
        sender: String = "sender-0",
        requestID: Int = 100
    ) -> (transportID: String, sessionID: String) {
        let actions = send(
            #"{"type":"LAUNCH","appId":"\#(appID)","requestId":\#(requestID)}"#,
            namespace: .receiver,
            from: sender,
            on: connection
        )
        let status = actions.payloads(namespace: .receiver).first { $0["requestId"]?.intValue == requestID }
        let app = status?["status"]?["applications"]?[0]
        return (app?["transportId"]?.stringValue ?? "", app?["sessionId"]?.stringValue ?? "")
    }

    /// Opens a connection, connects to the platform, launches the Default Media Receiver and
    /// connects to its transport; returns the transport id.
    mutating func startMediaApp(_ connection: ConnectionID = 1, sender: String = "sender-0") -> String {
        open(connection)
        connectPlatform(connection, sender: sender)
        let (transportID, _) = launch(on: connection, sender: sender)
        connectApp(transportID, on: connection, sender: sender)
        return transportID
    }

    @discardableResult
    mutating func connectApp(
        _ transportID: String,
        on connection: ConnectionID = 1,
        sender: String = "sender-0"
    )
        -> [DeviceAction]
    {
        send(#"{"type":"CONNECT"}"#, namespace: .connection, from: sender, to: transportID, on: connection)
    }

    @discardableResult
    mutating func media(
        _ json: String,
        transportID: String,
        on connection: ConnectionID = 1,
        sender: String = "sender-0"
    ) -> [DeviceAction] {
        send(json, namespace: .media, from: sender, to: transportID, on: connection)
    }

    /// Loads `url` (duration `duration`) and lets buffering finish; returns the media session id.
    mutating func loadAndPlay(
        transportID: String,
        url: String = "http://media.local/movie.mp4",
        duration: Double? = 100,
        extra: String = ""
    ) -> Int {
        let durationMember = duration.map { #","duration":\#($0)"# } ?? ""
        media(
            #"{"type":"LOAD","requestId":500,"media":{"contentId":"\#(url)","streamType":"BUFFERED","contentType":"video/mp4"\#(durationMember)}\#(extra)}"#,
            transportID: transportID
        )
        advance(by: .milliseconds(200))
        return engine.mediaStatus(at: now)?.mediaSessionID ?? -1
    }
}

// MARK: - Reading actions

extension Array where Element == DeviceAction {
    /// The messages sent, with their connections, in order.
    var sent: [(connection: ConnectionID, message: CastMessage)] {
        compactMap { action in
            if case .send(let message, let connection) = action { return (connection, message) }
            return nil
        }
    }

    /// The JSON payloads sent on `namespace`, in order.
    func payloads(namespace: CastNamespace) -> [JSONValue] {
        sent.filter { $0.message.namespace == namespace }.compactMap { entry in
            entry.message.payloadUTF8.flatMap { try? JSONValue(parsing: $0) }
        }
    }

    /// The JSON payloads of a type sent on `namespace`.
    func payloads(namespace: CastNamespace, type: String) -> [JSONValue] {
        payloads(namespace: namespace).filter { ($0["type"] ?? $0["responseType"])?.stringValue == type }
    }

    /// The messages sent to one sender endpoint.
    func sent(to connection: ConnectionID, sender: String = "sender-0") -> [CastMessage] {
        sent.filter { $0.connection == connection && $0.message.destinationID == sender }.map(\.message)
    }

    var logs: [DeviceLogEntry] {
        compactMap { action in
            if case .log(let entry) = action { return entry }
            return nil
        }
    }

    var closes: [ConnectionID] {
        compactMap { action in
            if case .close(let connection, _) = action { return connection }
            return nil
        }
    }
}

extension CastMessage {
    var json: JSONValue? { payloadUTF8.flatMap { try? JSONValue(parsing: $0) } }
}
