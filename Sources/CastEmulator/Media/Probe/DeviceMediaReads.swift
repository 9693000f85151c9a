import CastSync
import CastTime

/// The media a device reads for its engine (``MediaMode/fetch`` and ``MediaMode/auto``): the
/// probes of `LOAD`s and text tracks, at most ``DeviceServerOptions/mediaFetchLimit`` at once
/// (the others wait, oldest first), and the open-ended stream of the item playing, read while
/// it plays.
///
/// Each read runs in a task of its own, so that a slow media server never holds up the Cast
/// channel. The device calls ``enqueue(_:)`` and ``schedule(isPending:isFollowing:report:)``
/// under its engine's lock after every engine step (this lock is taken second); outcomes come
/// back through the closures it gives, without any lock held.
final class DeviceMediaReads: Sendable {
    private struct State {
        /// The reads under way, by probe id.
        var running: [UInt64: Task<Void, Never>] = [:]
        /// The reads waiting for a free place, oldest first.
        var waiting: [MediaProbeRequest] = []
        /// The open-ended streams read while their item plays, by probe id (at most one: the
        /// current item's).
        var followed: [UInt64: Task<Void, Never>] = [:]
    }

    /// Reads the media; its per-request timeout and body limit bound every read.
    let fetcher: MediaFetcher
    private let clock: any CastClock
    private let limit: Int
    private let deadline: Duration
    private let state = Locked(State())

    init(options: DeviceServerOptions, clock: any CastClock) {
        self.fetcher = MediaFetcher(timeout: options.mediaRequestTimeout)
        self.clock = clock
        self.limit = max(1, options.mediaFetchLimit)
        self.deadline = options.mediaProbeDeadline
    }

    /// Queues a read the engine asked for; it starts at the next ``schedule(isPending:isFollowing:report:)``.
    func enqueue(_ request: MediaProbeRequest) {
        state.withLock { $0.waiting.append(request) }
    }

    /// Cancels the reads the engine no longer waits for (a newer `LOAD`, a `STOP`, the item's
    /// end), which closes their connections, and starts waiting ones while fewer than the
    /// limit run. A finished probe's outcome goes to `report`, unless it was cancelled.
    /// - Returns: the events to log.
    func schedule(
        isPending: (UInt64) -> Bool,
        isFollowing: (UInt64) -> Bool,
        report: @escaping @Sendable (MediaProbeRequest, Result<MediaProbeResult, MediaLoadFailure>) -> Void
    ) -> [String] {
        state.withLock { state in
            var events: [String] = []
            for (id, task) in state.running where !isPending(id) {
                task.cancel()
                state.running[id] = nil
                events.append("media read \(id) superseded: cancelled")
            }
            for (id, task) in state.followed where !isFollowing(id) {
                task.cancel()
                state.followed[id] = nil
                events.append("stream read \(id) ended with its item: cancelled")
            }
            state.waiting.removeAll { !isPending($0.id) }
            while state.running.count < limit, !state.waiting.isEmpty {
                let request = state.waiting.removeFirst()
                state.running[request.id] = start(request, report: report)
            }
            if !state.waiting.isEmpty {
                events.append("\(state.waiting.count) media reads waiting for one of \(limit) places")
            }
            return events
        }
    }

    /// Forgets the read of probe `id`, whose outcome the engine has taken.
    func finished(_ id: UInt64) {
        state.withLock { _ = $0.running.removeValue(forKey: id) }
    }

    /// Keeps reading the open-ended stream at `url` while `isFollowing` holds (a receiver
    /// consuming a live stream; VLC paces its stream on this reader), and passes the end of
    /// the stream to `ended` when the server ends it. The read is cancelled, and its
    /// connection closed, by the next ``schedule(isPending:isFollowing:report:)`` after its
    /// item ends, or by ``cancelAll()``.
    func follow(
        _ url: String,
        probe id: UInt64,
        isFollowing: @escaping @Sendable () -> Bool,
        ended: @escaping @Sendable (MediaFetcher.StreamEnd) -> Void
    ) {
        let fetcher = self.fetcher
        state.withLock { state in
            // Created under the lock: the task cannot remove its entry before it is stored.
            state.followed[id] = Task { [weak self] in
                let end = await fetcher.follow(url, shouldContinue: isFollowing)
                self?.state.withLock { _ = $0.followed.removeValue(forKey: id) }
                guard let end, !Task.isCancelled else { return }
                ended(end)
            }
        }
    }

    /// Cancels every read, running, waiting and followed (the device is stopping).
    func cancelAll() {
        let tasks = state.withLock { state in
            defer { state = State() }
            return Array(state.running.values) + Array(state.followed.values)
        }
        for task in tasks { task.cancel() }
    }

    /// Reads the media of a `LOAD` in a task of its own and reports the outcome. The probe's
    /// overall deadline bounds the task; cancelling it closes its connection.
    private func start(
        _ request: MediaProbeRequest,
        report: @escaping @Sendable (MediaProbeRequest, Result<MediaProbeResult, MediaLoadFailure>) -> Void
    ) -> Task<Void, Never> {
        let (fetcher, clock, deadline) = (self.fetcher, self.clock, self.deadline)
        return Task {
            let outcome = await Self.probe(request, fetcher: fetcher, clock: clock, deadline: deadline)
            guard !Task.isCancelled else { return }
            report(request, outcome)
        }
    }

    /// Runs one media read against `deadline`, holding one of the process's read permits
    /// (``MediaReadPermits``): the read is cancelled (its connection closed) when the deadline
    /// passes first, waiting for a permit included, and the outcome is the network failure of
    /// its kind.
    static func probe(
        _ request: MediaProbeRequest,
        fetcher: MediaFetcher,
        clock: any CastClock,
        deadline: Duration,
        permits: MediaReadPermits = .shared
    ) async -> Result<MediaProbeResult, MediaLoadFailure> {
        let late: MediaLoadFailure =
            request.textTrackID != nil
            ? .textUnknown("no answer within \(deadline)")
            : .mediaNetwork("no answer within \(deadline)")
        return await withTaskGroup(of: Result<MediaProbeResult, MediaLoadFailure>?.self) { group in
            group.addTask {
                // A permit of the process first: the wait counts toward the deadline.
                try? await permits.withPermit { () async -> Result<MediaProbeResult, MediaLoadFailure> in
                    do throws(MediaLoadFailure) {
                        if request.textTrackID != nil {
                            return .success(try await fetcher.probeTextTrack(url: request.url))
                        }
                        return .success(try await fetcher.probe(url: request.url, contentType: request.contentType))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            group.addTask {
                try? await clock.sleep(for: deadline)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failure(late)
        }
    }
}
