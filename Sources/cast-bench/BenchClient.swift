import CastAuth
import CastCore
import CastSender
import Foundation

/// The swift-cast side of the cross-process rows: `cast-bench --client MODE ...`, started
/// by the benchmark exactly as the PyChromecast script is, printing one JSON object on
/// standard output (CLOCK_MONOTONIC nanoseconds).
///
/// - `noop`: prints `{}` (process start and exit, nothing else).
/// - `e2e HOST PORT`: starts a session (TLS, CONNECT, LAUNCH of the Default Media
///   Receiver), LOADs, waits for PLAYING and exits: `{"marks": {"started", "launched", "playing"}}`.
/// - `roundtrip HOST PORT COUNT [pool]`: the same start, then COUNT commands alternating
///   PAUSE and PLAY, each timed until the client's media status shows the new state, run on
///   the session's connection thread (``CastSession/taskExecutor``), or with `pool` on the
///   concurrency pool: `{"samples_ns": [...], "context_switches": [N]}` (the process's context
///   switches over the trips).
enum BenchClient {
    static let usage = "usage: cast-bench --client noop | e2e HOST PORT | roundtrip HOST PORT COUNT [pool]"

    /// Runs the mode in `arguments` (after `--client`) and returns the exit status.
    static func run(_ arguments: [String], startedAt: UInt64) async -> Int32 {
        do {
            switch (arguments.first, arguments.count) {
            case ("noop", 1):
                emit("{}")
            case ("e2e", 3):
                let (_, launched, playing) = try await startPlaying(host: arguments[1], port: arguments[2])
                emit(#"{"marks":{"started":\#(startedAt),"launched":\#(launched),"playing":\#(playing)}}"#)
            case ("roundtrip", 4), ("roundtrip", 5):
                guard let count = Int(arguments[3]), count > 0 else { throw BenchmarkFailure("COUNT must be > 0") }
                let onPool = arguments.count == 5 && arguments[4] == "pool"
                let (session, _, _) = try await startPlaying(host: arguments[1], port: arguments[2])
                // The commands run on the connection's thread (replies resume them there), or,
                // with `pool`, on the concurrency pool as before the session had an executor.
                let executor = onPool ? nil : session.session.taskExecutor
                let switchesBefore = contextSwitches()
                let samples = try await withTaskExecutorPreference(executor) {
                    try await roundTrips(session.session.remoteMediaClient, count: count)
                }
                let switches = contextSwitches() - switchesBefore
                withExtendedLifetime(session) {}
                emit(
                    #"{"samples_ns":[\#(samples.map(String.init).joined(separator: ","))],"context_switches":[\#(switches)]}"#
                )
            default:
                throw BenchmarkFailure(usage)
            }
            return 0
        } catch {
            emit(#"{"error":\#(JSONValue.string("\(error)").description)}"#)
            return 1
        }
    }

    private static func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// A started session and the context that owns it (which must outlive it).
    private struct Started {
        var context: CastContext
        var session: CastSession
    }

    /// Connects, launches the Default Media Receiver, loads and waits for PLAYING; returns
    /// the session and when it started and when the media played.
    private static func startPlaying(host: String, port: String) async throws -> (Started, UInt64, UInt64) {
        guard let address = IPAddress(host), let portNumber = UInt16(port) else {
            throw BenchmarkFailure("bad address \(host):\(port)")
        }
        var options = CastOptions(receiverApplicationID: DiscoveryCriteria.defaultMediaReceiverApplicationID)
        options.disableDiscoveryAutostart = true
        // The rows measure the Cast protocol path as PyChromecast (which never authenticates)
        // walks it; the devices are separate processes with roots of their own.
        options.deviceAuthentication = .off
        let context = CastContext(options: options)
        let device = CastDevice(id: UUID(), friendlyName: "Bench", addresses: [address], port: portNumber)
        let session = try await context.sessionManager.startSession(with: device)
        let launched = MonotonicClock.nanoseconds()
        let client = session.remoteMediaClient
        var updates = client.events().makeAsyncIterator()
        let media = MediaInformation(
            contentID: "http://127.0.0.1:9/bench.mp4",
            streamType: .buffered,
            contentType: "video/mp4"
        )
        try await client.load(LoadRequestData(media: media, autoplay: true)).result
        try await waitFor(.playing, client, &updates)
        return (Started(context: context, session: session), launched, MonotonicClock.nanoseconds())
    }

    /// The voluntary and involuntary context switches of every thread of the process so far.
    private static func contextSwitches() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_nvcsw + usage.ru_nivcsw
    }

    /// Alternates PAUSE and PLAY; each sample runs from the call until the client's status
    /// shows the new state.
    private static func roundTrips(_ client: RemoteMediaClient, count: Int) async throws -> [UInt64] {
        var updates = client.events().makeAsyncIterator()
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        for index in 0..<count {
            let pause = index.isMultiple(of: 2)
            let begin = MonotonicClock.nanoseconds()
            try await (pause ? client.pause() : client.play()).result
            try await waitFor(pause ? .paused : .playing, client, &updates)
            samples.append(MonotonicClock.nanoseconds() - begin)
        }
        return samples
    }

    /// Returns once the client's current status has `state`, waking on each event.
    private static func waitFor(
        _ state: PlayerState,
        _ client: RemoteMediaClient,
        _ updates: inout AsyncStream<RemoteMediaClientEvent>.Iterator
    ) async throws {
        while client.mediaStatus?.playerState != state {
            guard await updates.next() != nil else {
                throw BenchmarkFailure("the media client stopped before the player was \(state.rawValue)")
            }
        }
    }
}
