import CastCore
import CastNet
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator

/// A whole device in ``MediaMode/fetch`` over TLS: the probe runs in the device's own task
/// against the loopback HTTP server and its outcome reaches the sender.
@Suite struct VirtualDeviceMediaTests {
    /// Launches the Default Media Receiver, connects to it and sends a LOAD of `url`;
    /// returns the media messages up to the LOAD's answer (`requestId` 9), or up to the
    /// first for which `isLast` holds.
    static func loadOnDevice(
        _ url: String,
        extra: String = #""contentType":"video/mp4""#,
        load: String = "",
        isLast: (JSONValue) -> Bool = { $0["requestId"] == 9 }
    ) async throws -> [JSONValue] {
        var configuration = VirtualDeviceConfiguration(identity: ServerTestDevices.identity, randomSeed: 7)
        configuration.mediaMode = .fetch
        // The test sender sends no pings: a slowed run must not meet the liveness timeout.
        configuration.livenessTimeout = TestTiming.patience
        let device = VirtualDevice(
            configuration: configuration,
            options: .forTests(),
            certificateKey: ServerTestDevices.sharedKey
        )
        try await device.start()
        let sender = try await TestSender(port: try #require(device.ports).cast)
        defer { sender.close() }
        try await sender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
        try await sender.send(namespace: .receiver, #"{"type":"LAUNCH","appId":"CC1AD845","requestId":1}"#)
        var transportID: String?
        while transportID == nil, let message = try await sender.receive() {
            guard message.namespace == .receiver,
                let json = message.payloadUTF8.flatMap({ try? JSONValue(parsing: $0) })
            else { continue }
            let app = json["status"]?["applications"]?[0]
            if app?["appId"] == "CC1AD845" { transportID = app?["transportId"]?.stringValue }
        }
        let transport = try #require(transportID)
        try await sender.send(namespace: .connection, #"{"type":"CONNECT"}"#, destination: transport)
        try await sender.send(
            namespace: .media,
            #"{"type":"LOAD","requestId":9\#(load),"media":{"contentId":"\#(url)",\#(extra)}}"#,
            destination: transport
        )
        var media: [JSONValue] = []
        while let message = try await sender.receive(timeout: .seconds(60)) {
            guard message.namespace == .media, let json = message.payloadUTF8.flatMap({ try? JSONValue(parsing: $0) })
            else { continue }
            media.append(json)
            if isLast(json) { break }
        }
        await device.stop()
        return media
    }

    @Test func aServedMP4PlaysWithItsOwnDuration() async throws {
        try await MediaFetcherTests.withServer { base in
            let media = try await Self.loadOnDevice(base + "/start.mp4")
            let first = try #require(media.first?["status"]?[0])
            #expect(first["extendedStatus"]?["playerState"] == "LOADING")
            let reply = try #require(media.last)
            #expect(reply["type"] == "MEDIA_STATUS")
            #expect(reply["status"]?[0]?["playerState"] == "PLAYING")
            #expect(reply["status"]?[0]?["media"]?["duration"] == 8)
        }
    }

    @Test func aMissingFileReachesTheSenderAsLoadFailed() async throws {
        try await MediaFetcherTests.withServer { base in
            let media = try await Self.loadOnDevice(base + "/missing.mp4")
            #expect(media.first?["status"]?[0]?["extendedStatus"]?["playerState"] == "LOADING")
            #expect(media.contains { $0["type"] == "ERROR" && $0["detailedErrorCode"] == 103 })
            let reply = try #require(media.last)
            #expect(reply["type"] == "LOAD_FAILED")
            #expect(reply["detailedErrorCode"] == 103)
        }
    }

    /// VLC's LOAD (autoplay the string "false", LIVE Matroska from its own HTTP server): the
    /// device reads the stream's header, plays, keeps reading the stream and finishes the item
    /// once it played the 2.94 s of media the server sent before ending the stream.
    @Test func aLiveMatroskaStreamPlaysUntilTheServerEndsIt() async throws {
        let server = try LiveStreamServer(clusters: 30, header: LiveStreamServer.liveHeader)
        defer { server.close() }
        let media = try await Self.loadOnDevice(
            server.url,
            extra: #""streamType":"LIVE","contentType":"video/x-matroska""#,
            load: #","autoplay":"false""#,
            isLast: { $0["status"]?[0]?["idleReason"] == "FINISHED" }
        )
        let states = media.compactMap { $0["status"]?[0]?["playerState"]?.stringValue }
        #expect(states.first == "IDLE")
        #expect(media.first?["status"]?[0]?["extendedStatus"]?["playerState"] == "LOADING")
        let reply = try #require(media.first { $0["requestId"] == 9 })
        #expect(reply["status"]?[0]?["playerState"] == "PLAYING")
        #expect(reply["status"]?[0]?["media"]?["streamType"] == "LIVE")
        #expect(reply["status"]?[0]?["media"]?["tracks"]?[0]?["type"] == "VIDEO")
        let finished = try #require(media.last?["status"]?[0])
        #expect(finished["playerState"] == "IDLE")
        let end = try #require(finished["currentTime"]?.doubleValue)
        #expect(abs(end - 2.94) < 0.001)
        #expect(server.requests.withLock { $0 } == 2)
    }
}
