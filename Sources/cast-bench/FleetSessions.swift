import CastAuth
import CastCore
import CastNet
import CastSender
import Foundation

/// N SDK sessions held by this process, one `CastContext` each (a context holds one session,
/// as in the Google SDK): connected, the Default Media Receiver launched, a clip loaded and
/// playing, heartbeats at the SDK's default interval.
struct FleetSessions {
    /// The contexts whose session started and whose `LOAD` succeeded.
    var contexts: [CastContext]
    /// Why the others failed, most frequent first, with counts.
    var failures: [(reason: String, count: Int)]
    /// Seconds from the first connection to the last `LOAD` answered.
    var startSeconds: Double

    /// How many sessions end at the same time.
    static let concurrentEnds = 32

    /// Opens one session per address, `concurrentStarts` at a time.
    static func open(addresses: [String], port: Int = 8009, concurrentStarts: Int) async -> FleetSessions {
        let options = {
            var options = CastOptions(receiverApplicationID: DiscoveryCriteria.defaultMediaReceiverApplicationID)
            options.disableDiscoveryAutostart = true
            // The rows measure the Cast protocol path as PyChromecast (which never authenticates)
            // walks it; the devices are separate processes with roots of their own.
            options.deviceAuthentication = .off
            options.resumesSavedSession = false
            return options
        }()
        let media = MediaInformation(
            contentID: "http://127.0.0.1:1/fleet.mp4",
            streamType: .buffered,
            contentType: "video/mp4"
        )
        let clock = ContinuousClock()
        let begin = clock.now
        var contexts: [CastContext] = []
        var reasons: [String: Int] = [:]
        await withTaskGroup(of: Result<CastContext, any Error>.self) { group in
            var next = 0
            func addStart() {
                guard next < addresses.count else { return }
                let address = addresses[next]
                next += 1
                group.addTask {
                    let context = CastContext(options: options)
                    let device = CastDevice(id: UUID(), friendlyName: address, port: UInt16(port))
                    do {
                        let session = try await context.sessionManager.startSession(with: device, host: address)
                        try await session.remoteMediaClient.load(LoadRequestData(media: media, autoplay: true)).result
                        return .success(context)
                    } catch {
                        await context.sessionManager.endSession(stopCasting: false)
                        return .failure(error)
                    }
                }
            }
            for _ in 0..<concurrentStarts { addStart() }
            for await result in group {
                switch result {
                case .success(let context): contexts.append(context)
                case .failure(let error): reasons["\(error)", default: 0] += 1
                }
                addStart()
            }
        }
        return FleetSessions(
            contexts: contexts,
            failures: reasons.sorted { $0.value > $1.value }.map { ($0.key, $0.value) },
            startSeconds: (clock.now - begin).seconds
        )
    }

    /// The media position each session last heard from its device (`nil` without status).
    func reportedPositions() -> [Double?] {
        contexts.map { $0.sessionManager.currentSession?.remoteMediaClient.mediaStatus?.currentTime }
    }

    /// Sessions still connected.
    var connectedCount: Int {
        contexts.count { $0.sessionManager.currentSession?.connectionState == .connected }
    }

    /// Ends every session without stopping the receiver apps, `concurrentEnds` at a time.
    func close() async {
        await withTaskGroup(of: Void.self) { group in
            var next = 0
            func addEnd() {
                guard next < contexts.count else { return }
                let context = contexts[next]
                next += 1
                group.addTask { await context.sessionManager.endSession(stopCasting: false) }
            }
            for _ in 0..<Self.concurrentEnds { addEnd() }
            for await _ in group { addEnd() }
        }
    }
}
