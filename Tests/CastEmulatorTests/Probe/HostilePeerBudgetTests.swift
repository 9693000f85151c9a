import CastCore
import CastNet
import CastNetCore
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator

/// The findings of the third hostile-peer round, each over real sockets on loopback: what a
/// sender or a media server can make a virtual device hold stays within the budget of
/// docs/security.md ("Resource budget"), and the device keeps answering.
@Suite struct HostilePeerBudgetTests {
    typealias Hostile = HostileMediaServerTests

    /// LOAD after LOAD naming a host whose connect never completes: each superseded read
    /// closes its socket at once, so the device holds the current read's only (the connect
    /// timeout is ten minutes: only cancelling can have closed the others).
    @Test func superseededLoadsOfAHostThatNeverAcceptsHoldOneSocket() async throws {
        let port = try FullBacklogPort()
        let before = port.connectingSockets
        let device = try await Hostile.device()
        let sender = try await TestSender(port: try #require(device.ports).cast)
        defer { sender.close() }
        let transport = try await Hostile.launch(sender)
        let url = "http://127.0.0.1:\(port.port)/media.mp4"
        try await Hostile.load(url, requestID: 100, on: sender, transport: transport)
        for requestID in 101...140 {
            try await Hostile.load(url, requestID: requestID, on: sender, transport: transport)
            // The superseded LOAD is answered LOAD_CANCELLED: its read was cancelled then.
            let cancelled = try await Hostile.reply(requestID - 1, from: sender, namespace: .media)
            #expect(cancelled["type"] == "LOAD_CANCELLED")
        }
        try await pollUntil("the superseded connects to close") { port.connectingSockets <= before + 1 }
        try await sender.send(namespace: .receiver, #"{"type":"GET_STATUS","requestId":7}"#)
        #expect(try await Hostile.reply(7, from: sender, namespace: .receiver)["type"] == "RECEIVER_STATUS")
        await device.stop()
        try await pollUntil("the last connect to close with the device") { port.connectingSockets <= before }
    }

    /// The Cast port holds at most `maximumSenderConnections` connections: a further one is
    /// closed as it is accepted, and a place freed is taken again.
    @Test func theCastPortHoldsAtMostItsSenderConnections() async throws {
        var configuration = VirtualDeviceConfiguration(identity: ServerTestDevices.identity, randomSeed: 7)
        configuration.livenessTimeout = TestTiming.patience
        var options = DeviceServerOptions.forTests()
        options.maximumSenderConnections = 2
        let device = VirtualDevice(
            configuration: configuration,
            options: options,
            certificateKey: ServerTestDevices.sharedKey
        )
        let port = try await device.start().cast
        let first = try await TestSender(port: port)
        let second = try await TestSender(port: port)
        defer { second.close() }
        for sender in [first, second] {
            try await sender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
            try await sender.send(namespace: .receiver, #"{"type":"GET_STATUS","requestId":1}"#)
            #expect(try await Hostile.reply(1, from: sender, namespace: .receiver)["type"] == "RECEIVER_STATUS")
        }
        let third = try await TCPConnection.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: port))
        let refused = try await withDeadline(
            TestTiming.patience,
            onTimeout: { third.close() },
            body: { (try? await third.receive()) == nil }
        )
        #expect(refused, "the third connection was served")
        first.close()
        // Once the first place is free (its close is seen on the device's loop), a new sender
        // gets in.
        try await pollUntil("a place to free") { device.connectionCount < 2 }
        let fourth = try await TestSender(port: port)
        defer { fourth.close() }
        try await fourth.send(namespace: .connection, #"{"type":"CONNECT"}"#)
        try await fourth.send(namespace: .receiver, #"{"type":"GET_STATUS","requestId":2}"#)
        #expect(try await Hostile.reply(2, from: fourth, namespace: .receiver)["type"] == "RECEIVER_STATUS")
        await device.stop()
    }

    /// The process's media reads are bounded together: a read waits for a permit, the wait
    /// counts toward its deadline (here the only permit is held for ever: the read fails
    /// MEDIA_NETWORK without opening a connection), and a waiting read that is cancelled leaves
    /// the line at once.
    @Test func aReadWaitsForAPermitOfTheProcessWithinItsDeadline() async throws {
        let permits = MediaReadPermits(count: 1)
        let taken = WatchedCount()
        // Holds the only permit until the test ends (cancelled by the `defer`).
        let holder = Task {
            try await permits.withPermit {
                taken.add()
                await ChangeSignal().wait { false }
            }
        }
        defer { holder.cancel() }
        try await taken.wait(until: "the permit to be taken") { $0 == 1 }
        #expect(permits.availableCount == 0)
        let server = try HostileMediaServer(.silent)
        defer { server.close() }
        let request = MediaProbeRequest(id: 1, url: server.url, contentType: "video/mp4")
        let outcome = await DeviceMediaReads.probe(
            request,
            fetcher: MediaFetcher(timeout: .seconds(600)),
            clock: SystemCastClock(),
            deadline: .milliseconds(300),
            permits: permits
        )
        guard case .failure(let failure) = outcome else {
            Issue.record("the read got through: \(outcome)")
            return
        }
        #expect(failure.detailedErrorCode == 103)
        #expect(server.requests.value == 0)
        let waiter = Task { try await permits.withPermit { 1 } }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { _ = try await waiter.value }
        holder.cancel()
        _ = try? await holder.value
        #expect(try await permits.withPermit { 2 } == 2)
        #expect(permits.availableCount == 1)
    }

    /// Endless `100 Continue` answers: the read ends at the head limit and the LOAD fails
    /// with MEDIA_NETWORK (the probe deadline is ten minutes).
    @Test func endlessContinueAnswersFailTheLoad() async throws {
        let server = try ScriptedMediaServer { connection in
            let interim = Array(String(repeating: "HTTP/1.1 100 Continue\r\n\r\n", count: 2_000).utf8)
            while true { try await connection.send(interim) }
        }
        defer { server.close() }
        let device = try await Hostile.device()
        let sender = try await TestSender(port: try #require(device.ports).cast)
        defer { sender.close() }
        let transport = try await Hostile.launch(sender)
        try await Hostile.load(server.url, requestID: 9, on: sender, transport: transport)
        let failed = try await Hostile.reply(9, from: sender, namespace: .media)
        #expect(failed["type"] == "LOAD_FAILED" && failed["detailedErrorCode"] == 103)
        await device.stop()
    }

    /// A 2,000-track MP4 (one `mvhd`, minimal `trak`s) is refused as a receiver refuses a
    /// broken file, and the device answers on: no status over a frame is ever made.
    @Test func aMovieWithThousandsOfTracksIsRefused() async throws {
        let tracks = (1...2_000).flatMap { MP4Builder.track(id: UInt32($0), handler: "soun") }
        let movie =
            MP4Builder.fileType + MP4Builder.box("moov", MP4Builder.mvhd(timescale: 1000, duration: 8000) + tracks)
        let server = try ScriptedMediaServer { connection in
            try await connection.send(
                Array("HTTP/1.1 200 OK\r\nContent-Type: video/mp4\r\nContent-Length: \(movie.count)\r\n\r\n".utf8)
                    + movie
            )
        }
        defer { server.close() }
        let device = try await Hostile.device()
        let sender = try await TestSender(port: try #require(device.ports).cast)
        defer { sender.close() }
        let transport = try await Hostile.launch(sender)
        try await Hostile.load(server.url, requestID: 9, on: sender, transport: transport)
        let failed = try await Hostile.reply(9, from: sender, namespace: .media)
        #expect(failed["type"] == "LOAD_FAILED" && failed["detailedErrorCode"] == 102)
        try await sender.send(namespace: .media, #"{"type":"GET_STATUS","requestId":10}"#, destination: transport)
        #expect(try await Hostile.reply(10, from: sender, namespace: .media)["type"] == "MEDIA_STATUS")
        await device.stop()
    }

    /// A LOAD as large as a frame allows (65,400 bytes: a title and custom data) echoes to a
    /// status that no frame holds, which was dropped before: it is sent, trimmed by the
    /// documented rule (the custom data goes, the title stays), and every later request is
    /// answered.
    @Test func aStatusTooLargeForAFrameIsTrimmedNotDropped() async throws {
        let device = try await Hostile.device()
        let sender = try await TestSender(port: try #require(device.ports).cast)
        defer { sender.close() }
        let transport = try await Hostile.launch(sender)
        let custom = String(repeating: "c", count: 32_000)
        func load(title: String) -> String {
            #"{"type":"LOAD","requestId":9,"media":{"contentId":"app-content","contentType":"video/mp4","duration":60,"#
                + #""metadata":{"metadataType":0,"title":"\#(title)"},"customData":{"blob":"\#(custom)"}}}"#
        }
        let title = String(repeating: "t", count: 65_400 - load(title: "").utf8.count)
        #expect(load(title: title).utf8.count == 65_400)
        try await sender.send(namespace: .media, load(title: title), destination: transport)
        let status = try await Hostile.reply(9, from: sender, namespace: .media)
        #expect(status["type"] == "MEDIA_STATUS")
        let media = status["status"]?[0]?["media"]
        #expect(media?["metadata"]?["title"]?.stringValue == title)
        #expect(media?["customData"] == nil, "the custom data was kept")
        for requestID in 10...12 {
            try await sender.send(
                namespace: .media,
                #"{"type":"GET_STATUS","requestId":\#(requestID)}"#,
                destination: transport
            )
            let answer = try await Hostile.reply(requestID, from: sender, namespace: .media)
            #expect(answer["status"]?[0]?["media"]?["contentId"] == "app-content")
        }
        await device.stop()
    }

    /// The trimming rule by itself: whatever the status holds, its message fits a frame, and
    /// the steps run in the documented order.
    @Test func theTrimmingRuleFitsAnyStatusInAFrame() {
        var media = MediaInformation(contentID: "x", contentType: "video/mp4")
        media.tracks = (1...5_000).map { MediaTrack(trackID: $0, type: .audio, language: "en") }
        media.customData = .string(String(repeating: "c", count: 70_000))
        var metadata = MediaMetadata()
        metadata.title = String(repeating: "t", count: 70_000)
        media.metadata = metadata
        var status = MediaStatus(mediaSessionID: 1)
        status.media = media
        status.items = (1...50).map { QueueItem(itemID: $0, media: media) }
        let (payload, trimmed) = MediaPlayer.fittedStatusMessage([status], requestID: 77)
        #expect(payload.utf8.count <= MediaPlayer.maximumPayloadSize)
        #expect(
            trimmed == ["queue items", "tracks past the first 16", "tracks", "custom data", "ad breaks", "metadata"]
        )
        let decoded = try? JSONValue(parsing: payload)
        #expect(decoded?["requestId"] == 77)
        #expect(decoded?["status"]?[0]?["media"]?["metadata"]?["title"]?.stringValue?.count == 256)
        // A status that fits is sent as it is.
        let small = MediaPlayer.fittedStatusMessage([MediaStatus(mediaSessionID: 1)], requestID: 1)
        #expect(small.trimmed.isEmpty)
    }

    // MARK: Playlists and durations (docs/emulator.md, "Reading media")

    static func playlist(segments: Int, endList: Bool = true) -> [UInt8] {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n"
        for index in 0..<segments { text += "#EXTINF:10.0,\nsegment-\(index).ts\n" }
        if endList { text += "#EXT-X-ENDLIST\n" }
        return Array(text.utf8)
    }

    static let vod144KB = playlist(segments: 5_000)
    static let overOneMiB = playlist(segments: 40_000)

    static func withPlaylistServer(_ body: (String) async throws -> Void) async throws {
        var routes = HTTPRoutes()
        let vod = vod144KB
        let large = overOneMiB
        routes.add(.get, "/vod.m3u8") { _ in .ok(.bytes(vod), contentType: "application/x-mpegurl") }
        routes.add(.get, "/large.m3u8") { _ in .ok(.bytes(large), contentType: "application/x-mpegurl") }
        routes.add(.get, "/master.m3u8") { _ in
            .ok(.text("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nlarge.m3u8\n"), contentType: "application/x-mpegurl")
        }
        routes.add(.get, "/infinite.m3u8") { _ in
            .ok(
                .text(
                    "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:1e308,\na.ts\n#EXTINF:1e308,\nb.ts\n#EXT-X-ENDLIST\n"
                ),
                contentType: "application/x-mpegurl"
            )
        }
        routes.add(.get, "/forever.mpd") { _ in
            .ok(
                .text(#"<MPD type="static" mediaPresentationDuration="P999999999Y"><Period/></MPD>"#),
                contentType: "application/dash+xml"
            )
        }
        let server = try HTTPServer(address: .loopbackIPv4(), routes: routes)
        defer { server.close() }
        try await body("http://127.0.0.1:\(server.localAddress.port)")
    }

    /// A 144 KB VOD playlist is read whole (to its `#EXT-X-ENDLIST`), not from its first
    /// 64 KiB: a VOD item of 4,600 × 10 s.
    @Test func aPlaylistLargerThanTheHeadIsReadWhole() async throws {
        #expect(Self.vod144KB.count > 140_000)
        try await Self.withPlaylistServer { base in
            let result = try await MediaFetcherTests.fetcher.probe(url: base + "/vod.m3u8", contentType: nil)
            #expect(!result.isLive && result.duration == 50_000)
        }
    }

    static let refusals: [(String, String, Int)] = [
        ("/large.m3u8", "HLS_MANIFEST_MASTER", 411),
        ("/master.m3u8", "HLS_MANIFEST_PLAYLIST", 412),
        ("/infinite.m3u8", "HLS_MANIFEST_MASTER", 411),
        ("/forever.mpd", "DASH_MANIFEST_UNKNOWN", 420),
    ]

    /// A playlist over 1 MiB (itself or as the variant) is refused, not played as live from
    /// its start; an `#EXTINF` sum of infinity and a `mediaPresentationDuration` of a
    /// billion years are manifest errors, not the simulated 600 s.
    @Test(arguments: refusals)
    func anOversizedPlaylistOrAnAbsurdDurationIsAnError(path: String, name: String, code: Int) async throws {
        #expect(Self.overOneMiB.count > 1 << 20)
        try await Self.withPlaylistServer { base in
            do {
                let result = try await MediaFetcherTests.fetcher.probe(url: base + path, contentType: nil)
                Issue.record("expected \(name), got \(result)")
            } catch let error as MediaLoadFailure {
                #expect(error.detailedErrorName == name && error.detailedErrorCode == code, "\(error)")
            }
        }
    }
}

/// A loopback server answering every request with a script written in the test.
final class ScriptedMediaServer: Sendable {
    let listener: TCPListener
    let task: Task<Void, Never>

    var url: String { "http://127.0.0.1:\(listener.localAddress.port)/media.mp4" }

    init(_ script: @escaping @Sendable (TCPConnection) async throws -> Void) throws {
        let listener = try TCPListener(address: .loopbackIPv4())
        self.listener = listener
        task = Task {
            await withTaskGroup(of: Void.self) { group in
                for await connection in listener.connections {
                    group.addTask {
                        defer { connection.close() }
                        var request: [UInt8] = []
                        while !(request.count >= 4 && Array(request.suffix(4)) == Array("\r\n\r\n".utf8)) {
                            guard let bytes = try? await connection.receive(), request.count < 8192 else { return }
                            request += bytes
                        }
                        try? await script(connection)
                    }
                }
            }
        }
    }

    func close() {
        listener.close()
        task.cancel()
    }
}
