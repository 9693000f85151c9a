import CastAuth
import CastEmulator
import CastNet
import CastSender
import Foundation

/// Session start (connect → launched → LOAD → PLAYING) and command round trip
/// (PAUSE/PLAY → MEDIA_STATUS) against an in-process virtual device on loopback with no
/// buffering delay.
let sessionBenchmarks = BenchmarkGroup(
    name: "session",
    summary: "session start and command round trip against an in-process device"
) {
    var configuration = VirtualDeviceConfiguration(
        identity: DeviceIdentity(friendlyName: "Bench", deviceID: "0123456789abcdef0123456789abcdef")
    )
    configuration.bufferingDelay = .zero
    let device = VirtualDevice(configuration: configuration, options: .ephemeral(address: "127.0.0.1"))
    let ports = try await device.start()
    do {
        let rows = try await measureSessions(castPort: ports.cast)
        await device.stop()
        return rows
    } catch {
        await device.stop()
        throw error
    }
}

private func measureSessions(castPort: Int) async throws -> [BenchmarkRow] {

    var options = CastOptions(receiverApplicationID: DiscoveryCriteria.defaultMediaReceiverApplicationID)
    options.disableDiscoveryAutostart = true
    // The rows measure the Cast protocol path as PyChromecast (which never authenticates)
    // walks it, so that both columns measure the same work.
    options.deviceAuthentication = .off
    let context = CastContext(options: options)
    let target = CastDevice(
        id: UUID(),
        friendlyName: "Bench",
        addresses: [IPAddress("127.0.0.1")!],
        port: UInt16(castPort)
    )
    let media = MediaInformation(
        contentID: "https://example.invalid/bench.mp4",
        streamType: .buffered,
        contentType: "video/mp4"
    )
    let clock = ContinuousClock()

    let loadBefore = LoadAverage.read()
    var starts: [Double] = []
    for _ in 0..<BenchmarkSettings.count(200, quick: 3) {
        let begin = clock.now
        let session = try await context.sessionManager.startSession(with: target)
        try await session.remoteMediaClient.load(LoadRequestData(media: media, autoplay: true)).result
        var playing = session.remoteMediaClient.mediaStatus?.playerState == .playing
        if !playing {
            for await event in session.remoteMediaClient.events() {
                if event.kind == .didUpdateMediaStatus, event.mediaStatus?.playerState == .playing {
                    playing = true
                    break
                }
            }
        }
        starts.append((clock.now - begin).seconds)
        await context.sessionManager.endSession(stopCasting: true)
    }

    let session = try await context.sessionManager.startSession(with: target)
    let client = session.remoteMediaClient
    try await client.load(LoadRequestData(media: media, autoplay: true)).result
    var trips: [Double] = []
    for index in 0..<BenchmarkSettings.count(10_000, quick: 20) {
        let begin = clock.now
        try await (index.isMultiple(of: 2) ? client.pause() : client.play()).result
        trips.append((clock.now - begin).seconds)
    }
    await context.sessionManager.endSession(stopCasting: true)

    starts.sort()
    trips.sort()
    let load = LoadAverage.read()
    func tail(_ sorted: [Double]) -> String {
        "p99.9 \(Format.time(seconds: Measure.percentile(sorted, 0.999))), max \(Format.time(seconds: sorted.last ?? .nan))"
    }
    return [
        BenchmarkRow(
            name: "session start → PLAYING",
            value: "\(starts.count) runs",
            median: Format.time(seconds: Measure.percentile(starts, 0.5)),
            p99: Format.time(seconds: Measure.percentile(starts, 0.99)),
            note: "TLS, CONNECT, GET_STATUS, LAUNCH, app CONNECT, media GET_STATUS, LOAD; \(tail(starts))"
        ),
        BenchmarkRow(
            name: "PAUSE/PLAY → MEDIA_STATUS",
            value: "\(trips.count) runs",
            median: Format.time(seconds: Measure.percentile(trips, 0.5)),
            p99: Format.time(seconds: Measure.percentile(trips, 0.99)),
            note: "request round trip on one session; \(tail(trips)); target p99 ≤ 2 ms: "
                + (Measure.percentile(trips, 0.99) <= 0.002 ? "met" : "missed")
        ),
        BenchmarkRow(
            name: "load average (1 min) during the rows",
            value: LoadAverage.text(before: loadBefore, after: load),
            note: "\(LoadAverage.cores) cores; load the machine (e.g. a parallel build) to measure the tails under load"
        ),
    ]
}
