import CastCore
import CastNet
import CastNetCore
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator

/// Follows a device's `/screen/events` over plain TCP and splits it into events.
final class ScreenEventReader: Sendable {
    let connection: TCPConnection
    private let buffer = Locked<[UInt8]>([])
    let head: String

    init(port: Int, address: String = "127.0.0.1") async throws {
        let connection = try await TCPConnection.connect(to: try SocketAddress(ipAddress: address, port: port))
        self.connection = connection
        try await connection.send(Array("GET /screen/events HTTP/1.1\r\nHost: \(address):\(port)\r\n\r\n".utf8))
        let (head, rest) = try await withDeadline(
            TestTiming.patience,
            onTimeout: { connection.close() },
            body: {
                var all: [UInt8] = []
                while true {
                    if let split = all.indices.first(where: { all[$0...].starts(with: [13, 10, 13, 10]) }) {
                        return (String(decoding: all[..<split], as: UTF8.self), Array(all[(split + 4)...]))
                    }
                    guard let bytes = try await connection.receive() else {
                        return (String(decoding: all, as: UTF8.self), [UInt8]())
                    }
                    all += bytes
                }
            }
        )
        self.head = head
        buffer.withLock { $0 = rest }
    }

    /// The status code of the answer.
    var status: Int { Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0 }

    /// The next `state` event's JSON, or `nil` when the device closed the stream.
    func next() async throws -> JSONValue? {
        let connection = self.connection
        return try await withDeadline(
            TestTiming.patience,
            onTimeout: { connection.close() },
            body: {
                while true {
                    if let event = self.buffer.withLock({ buffer -> String? in
                        guard let end = buffer.indices.first(where: { buffer[$0...].starts(with: [10, 10]) }) else {
                            return nil
                        }
                        let text = String(decoding: buffer[..<end], as: UTF8.self)
                        buffer.removeFirst(end + 2)
                        return text
                    }) {
                        let lines = event.split(separator: "\n")
                        guard lines.contains("event: state"), let data = lines.first(where: { $0.hasPrefix("data: ") })
                        else { continue }
                        return try JSONValue(parsing: String(data.dropFirst(6)))
                    }
                    guard let bytes = try await connection.receive() else { return nil }
                    self.buffer.withLock { $0 += bytes }
                }
            }
        )
    }

    /// Reads events until one satisfies `predicate`; returns it and every event before it.
    func until(_ predicate: (JSONValue) -> Bool) async throws -> (match: JSONValue, seen: [JSONValue]) {
        var seen: [JSONValue] = []
        while let event = try await next() {
            seen.append(event)
            if predicate(event) { return (event, seen) }
        }
        throw ScreenTestError(description: "the stream ended; seen: \(seen)")
    }

    func close() { connection.close() }
}

struct ScreenTestError: Error, CustomStringConvertible {
    let description: String
}

/// The device's TV screen: its page, its event stream and its state, driven over the real
/// Cast channel (TLS) by a test sender.
@Suite struct ScreenTests {
    /// A device running the real engine with simulated media, on ephemeral loopback ports.
    static func device(
        mediaMode: MediaMode = .simulate,
        configure: (inout DeviceServerOptions) -> Void = { _ in }
    ) async throws -> VirtualDevice {
        var configuration = VirtualDeviceConfiguration(identity: ServerTestDevices.identity, randomSeed: 11)
        configuration.mediaMode = mediaMode
        configuration.livenessTimeout = TestTiming.patience
        var options = DeviceServerOptions.forTests()
        configure(&options)
        let device = VirtualDevice(
            configuration: configuration,
            options: options,
            certificateKey: ServerTestDevices.sharedKey
        )
        try await device.start()
        return device
    }

    /// Connects a sender and launches the Default Media Receiver; returns its transport id.
    static func launch(_ sender: TestSender) async throws -> String {
        try await sender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
        try await sender.send(namespace: .receiver, #"{"type":"LAUNCH","appId":"CC1AD845","requestId":1}"#)
        while let message = try await sender.receive() {
            guard message.namespace == .receiver,
                let json = message.payloadUTF8.flatMap({ try? JSONValue(parsing: $0) })
            else { continue }
            let app = json["status"]?["applications"]?[0]
            if app?["appId"] == "CC1AD845", let transport = app?["transportId"]?.stringValue {
                try await sender.send(namespace: .connection, #"{"type":"CONNECT"}"#, destination: transport)
                return transport
            }
        }
        throw ScreenTestError(description: "no RECEIVER_STATUS with the app")
    }

    /// Sends a media request and returns the `MEDIA_STATUS` answering it.
    static func media(
        _ sender: TestSender,
        _ payload: String,
        requestID: Int,
        to transport: String
    ) async throws
        -> JSONValue
    {
        try await sender.send(namespace: .media, payload, destination: transport)
        while let message = try await sender.receive() {
            guard message.namespace == .media, let json = message.payloadUTF8.flatMap({ try? JSONValue(parsing: $0) })
            else { continue }
            if json["requestId"]?.intValue == requestID { return json }
        }
        throw ScreenTestError(description: "no answer to request \(requestID)")
    }

    @Test func thePageIsSelfContainedAndLoadsNothingFromElsewhere() async throws {
        let device = try await Self.device()
        let response = try await httpExchange(port: try #require(device.ports).http, request: "GET / HTTP/1.1\r\n\r\n")
        #expect(response.status == 200)
        #expect(response.head.contains("Content-Type: text/html"))
        #expect(response.head.contains("Content-Security-Policy: default-src 'none'"))
        let page = String(decoding: response.body, as: UTF8.self)
        #expect(page.contains("new EventSource(\"/screen/events\")"))
        // No external script, style, font or image, and data never goes in as markup.
        for forbidden in [
            "<script src", "<link", "@import", "url(", "innerHTML", "insertAdjacentHTML", "document.write",
        ] {
            #expect(!page.contains(forbidden), "the page contains \(forbidden)")
        }
        #expect(device.screenURL == "http://127.0.0.1:\(try #require(device.ports).http)/")
        await device.stop()
    }

    @Test func theScreenIsOffWhenAskedAndByDefaultOffLoopback() async throws {
        let device = try await Self.device { $0.screen = false }
        let response = try await httpExchange(port: try #require(device.ports).http, request: "GET / HTTP/1.1\r\n\r\n")
        #expect(response.status == 404)
        #expect(device.screenURL == nil)
        await device.stop()
        #expect(!DeviceServerOptions(address: "192.168.1.20").servesScreen)
        #expect(DeviceServerOptions(address: "127.0.0.2").servesScreen)
    }

    /// LOAD, PAUSE, SEEK and STOP over the Cast channel reach the screen's stream as they
    /// happen, in that order, with rising revisions; the JSON snapshot agrees.
    @Test func theStreamDeliversChangesInOrder() async throws {
        let device = try await Self.device()
        let port = try #require(device.ports).http
        let reader = try await ScreenEventReader(port: port)
        defer { reader.close() }
        #expect(reader.status == 200)
        #expect(reader.head.contains("Content-Type: text/event-stream"))
        var all: [JSONValue] = []
        let idle = try await reader.until { $0["app"]?["idleScreen"] == true }
        all += idle.seen
        #expect(idle.match["media"] == .null)
        #expect(idle.match["device"] == "Test Device")

        let sender = try await TestSender(port: try #require(device.ports).cast)
        defer { sender.close() }
        let transport = try await Self.launch(sender)
        let launched = try await reader.until { $0["app"]?["name"] == "Default Media Receiver" }
        all += launched.seen

        let loaded = try await Self.media(
            sender,
            #"{"type":"LOAD","requestId":2,"media":{"contentId":"movie","contentType":"video/mp4","streamType":"BUFFERED","duration":120,"metadata":{"metadataType":0,"title":"Screen Test","subtitle":"A subtitle","images":[{"url":"http://127.0.0.1:9/art.png"}]}}}"#,
            requestID: 2,
            to: transport
        )
        let session = try #require(loaded["status"]?[0]?["mediaSessionId"]?.intValue)
        let playing = try await reader.until { $0["media"]?["state"] == "PLAYING" }
        all += playing.seen
        #expect(playing.match["media"]?["title"] == "Screen Test")
        #expect(playing.match["media"]?["subtitle"] == "A subtitle")
        #expect(playing.match["media"]?["image"] == "http://127.0.0.1:9/art.png")
        #expect(playing.match["media"]?["duration"] == 120)

        _ = try await Self.media(
            sender,
            #"{"type":"PAUSE","requestId":3,"mediaSessionId":\#(session)}"#,
            requestID: 3,
            to: transport
        )
        let paused = try await reader.until { $0["media"]?["state"] == "PAUSED" }
        all += paused.seen

        _ = try await Self.media(
            sender,
            #"{"type":"SEEK","requestId":4,"mediaSessionId":\#(session),"currentTime":42}"#,
            requestID: 4,
            to: transport
        )
        let seeked = try await reader.until { $0["media"]?["position"]?.doubleValue == 42 }
        all += seeked.seen
        #expect(seeked.match["media"]?["state"] == "PAUSED")
        let snapshot = try await httpExchange(port: port, request: "GET /screen/state HTTP/1.1\r\n\r\n")
        let state = try JSONValue(parsing: snapshot.body)
        #expect(state["media"]?["position"]?.doubleValue == 42)
        #expect(state["media"]?["state"] == "PAUSED")

        _ = try await Self.media(
            sender,
            #"{"type":"STOP","requestId":5,"mediaSessionId":\#(session)}"#,
            requestID: 5,
            to: transport
        )
        let stopped = try await reader.until { $0["media"]?["state"] == "IDLE" || $0["media"] == .null }
        all += stopped.seen

        let revisions = all.compactMap { $0["revision"]?.intValue }
        #expect(revisions.count == all.count)
        #expect(revisions == revisions.sorted() && Set(revisions).count == revisions.count)
        await device.stop()
        // Stopping the device ends the stream.
        #expect(try await reader.next() == nil)
    }

    /// A title built to break out of the page or the event framing arrives as one string.
    @Test func aHostileTitleIsDeliveredAsData() async throws {
        let device = try await Self.device()
        let reader = try await ScreenEventReader(port: try #require(device.ports).http)
        defer { reader.close() }
        _ = try await reader.next()
        let sender = try await TestSender(port: try #require(device.ports).cast)
        defer { sender.close() }
        let transport = try await Self.launch(sender)
        let hostile = "</script><script>alert(1)</script><img src=x onerror=alert(2)>\n\nevent: state\ndata: {}\r\n"
        let title = try #require(String(data: try JSONEncoder().encode(hostile), encoding: .utf8))
        _ = try await Self.media(
            sender,
            #"{"type":"LOAD","requestId":2,"media":{"contentId":"x","contentType":"video/mp4","metadata":{"metadataType":0,"title":\#(title),"images":[{"url":"javascript:alert(3)"}]}}}"#,
            requestID: 2,
            to: transport
        )
        let event = try await reader.until { $0["media"] != nil && $0["media"] != .null }
        // Control characters (line breaks here) are dropped; the markup is kept as text.
        let shown = String(String.UnicodeScalarView(hostile.unicodeScalars.filter { $0.value >= 0x20 }))
        #expect(event.match["media"]?["title"]?.stringValue == shown)
        // Only http(s) artwork reaches the page.
        #expect(event.match["media"]?["image"] == .null)
        // No event came out of the title: the next one, if any, is a whole state again.
        for earlier in event.seen { #expect(earlier["device"] == "Test Device") }
        await device.stop()
    }

    /// At most `screenClientLimit` streams are open: a further browser takes the place of the
    /// oldest when none is behind, and that one's stream ends (its page reconnects).
    @Test func theNumberOfStreamsIsBounded() async throws {
        let device = try await Self.device { $0.screenClientLimit = 2 }
        let port = try #require(device.ports).http
        let first = try await ScreenEventReader(port: port)
        defer { first.close() }
        let second = try await ScreenEventReader(port: port)
        defer { second.close() }
        #expect(first.status == 200 && second.status == 200)
        #expect(try await first.next()?["device"] == "Test Device")
        let third = try await ScreenEventReader(port: port)
        defer { third.close() }
        #expect(third.status == 200)
        #expect(try await third.next()?["device"] == "Test Device")
        // The oldest gave its place up: its stream ends.
        #expect(try await first.next() == nil)
        #expect(try #require(device.screen).clientCount == 2)
        await device.stop()
    }

    /// A sender's captions cannot black the screen out: 120 cues of 500 control characters
    /// each (what a WebVTT track may hold) reach the page as a window of cues around the
    /// position, their control characters dropped, in an event of a few kilobytes; the
    /// stream stays open.
    @Test func hostileCaptionsKeepTheScreenUp() async throws {
        var routes = HTTPRoutes()
        let clip = MP4Builder.fastStart()
        var vtt = "WEBVTT\n\n"
        for index in 0..<120 {
            let start = Double(index) / 2
            vtt += "\(Self.cueTime(start)) --> \(Self.cueTime(start + 0.4))\n"
            vtt += String(repeating: "\u{01}", count: 499) + "x\n\n"
        }
        let track = vtt
        routes.add(.get, "/clip.mp4") { _ in .ok(.bytes(clip), contentType: "video/mp4") }
        routes.add(.get, "/captions.vtt") { _ in .ok(.text(track), contentType: "text/vtt") }
        let media = try HTTPServer(address: .loopbackIPv4(), routes: routes)
        defer { media.close() }
        let base = "http://127.0.0.1:\(media.localAddress.port)"
        let device = try await Self.device(mediaMode: .fetch)
        let reader = try await ScreenEventReader(port: try #require(device.ports).http)
        defer { reader.close() }
        let sender = try await TestSender(port: try #require(device.ports).cast)
        defer { sender.close() }
        let transport = try await Self.launch(sender)
        let tracks =
            #"[{"trackId":1,"type":"TEXT","subtype":"SUBTITLES","trackContentId":"\#(base)/captions.vtt","#
            + #""trackContentType":"text/vtt"}]"#
        try await sender.send(
            namespace: .media,
            #"{"type":"LOAD","requestId":2,"activeTrackIds":[1],"media":{"contentId":"\#(base)/clip.mp4","#
                + #""contentType":"video/mp4","tracks":\#(tracks)}}"#,
            destination: transport
        )
        let captioned = try await reader.until { ($0["media"]?["captions"]?["cues"]?.arrayValue?.count ?? 0) > 0 }
        for event in captioned.seen {
            let size = try JSONPayloadEncoder().encodeToBytes(event).count
            #expect(size < 64 * 1024, "an event of \(size) bytes")
        }
        let cues = try #require(captioned.match["media"]?["captions"]?["cues"]?.arrayValue)
        #expect(cues.count <= ScreenState.maximumCues)
        for cue in cues {
            let text = try #require(cue[2]?.stringValue)
            #expect(text == "x")
        }
        // The stream is still open: the next change arrives.
        try await sender.send(namespace: .receiver, #"{"type":"SET_VOLUME","requestId":3,"volume":{"level":0.25}}"#)
        _ = try await reader.until { $0["volume"]?["level"]?.doubleValue == 0.25 }
        await device.stop()
    }

    static func cueTime(_ seconds: Double) -> String {
        let millis = Int((seconds * 1000).rounded())
        let (minutes, rest) = (millis / 60_000, millis % 60_000)
        let text = String(rest / 1000)
        return
            "\(minutes < 10 ? "0" : "")\(minutes):\(text.count < 2 ? "0" : "")\(text).\(String(format: "%03d", rest % 1000))"
    }

    /// The screen answers only requests whose `Host` names the device: a page whose name was
    /// rebound to the device's address gets 421 on every screen path.
    @Test(arguments: ["/", "/screen/state", "/screen/events"])
    func aRequestForAnotherHostIsRefused(path: String) async throws {
        let device = try await Self.device()
        let port = try #require(device.ports).http
        let rebound = try await httpExchange(
            port: port,
            request: "GET \(path) HTTP/1.1\r\nHost: attacker.example:\(port)\r\n\r\n"
        )
        #expect(rebound.status == 421)
        let noHost = try await httpExchange(port: port, request: "GET \(path) HTTP/1.0\r\nHost:\r\n\r\n")
        #expect(noHost.status == 421)
        if path != "/screen/events" {
            let own = try await httpExchange(port: port, request: "GET \(path) HTTP/1.1\r\n\r\n")
            #expect(own.status == 200)
        }
        await device.stop()
    }

    /// Eight browsers that never read hold no place a reading one needs: the ninth gets its
    /// stream and the state, and the longest-idle one is closed.
    @Test func browsersThatNeverReadDoNotKeepAReadingOneOut() async throws {
        let device = try await Self.device()
        let port = try #require(device.ports).http
        var idle: [TCPConnection] = []
        defer { for connection in idle { connection.close() } }
        for _ in 0..<8 {
            let connection = try await TCPConnection.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: port))
            try await connection.send(Array("GET /screen/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8))
            idle.append(connection)
        }
        let hub = try #require(device.screen)
        try await pollUntil("the eight idle streams to open") { hub.clientCount >= 8 }
        let reader = try await ScreenEventReader(port: port)
        defer { reader.close() }
        #expect(reader.status == 200)
        #expect(try await reader.next()?["device"] == "Test Device")
        // The first idle browser's stream was ended: reading it now finds its end.
        let first = idle[0]
        let closed = try await withDeadline(
            TestTiming.patience,
            onTimeout: { first.close() },
            body: {
                while try await first.receive() != nil {}
                return true
            }
        )
        #expect(closed)
        #expect(hub.clientCount == 8)
        await device.stop()
    }

    /// A browser that never reads its stream holds up neither the Cast channel nor the other
    /// browsers: 300 volume changes are each answered, and a reading browser sees the last.
    @Test func aStalledStreamDoesNotStallTheCastChannel() async throws {
        let device = try await Self.device { $0.screenBufferLimit = 4096 }
        let port = try #require(device.ports).http
        let stalled = try await TCPConnection.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: port))
        defer { stalled.close() }
        try await stalled.send(Array("GET /screen/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8))
        let reader = try await ScreenEventReader(port: port)
        defer { reader.close() }
        let sender = try await TestSender(port: try #require(device.ports).cast)
        defer { sender.close() }
        _ = try await Self.launch(sender)
        for step in 1...300 {
            let level = Double(step % 100) / 100
            try await sender.send(
                namespace: .receiver,
                #"{"type":"SET_VOLUME","requestId":\#(step + 10),"volume":{"level":\#(level)}}"#
            )
            var answered = false
            while !answered, let message = try await sender.receive() {
                let json = message.payloadUTF8.flatMap { try? JSONValue(parsing: $0) }
                answered = json?["requestId"]?.intValue == step + 10
            }
            #expect(answered)
        }
        let last = try await reader.until { $0["volume"]?["level"]?.doubleValue == 0 }
        #expect(last.match["volume"]?["muted"] == false)
        let snapshot = try await httpExchange(port: port, request: "GET /screen/state HTTP/1.1\r\n\r\n")
        #expect(try JSONValue(parsing: snapshot.body)["volume"]?["level"]?.doubleValue == 0)
        await device.stop()
    }
}
