/// Runs the jobs of tasks that prefer it on the thread of a session's connection, else on the
/// global concurrent executor (see ``CastSession/taskExecutor``).
final class SessionTaskExecutor: TaskExecutor, Sendable {
    private weak let session: CastSession?

    init(session: CastSession) {
        self.session = session
    }

    func enqueue(_ job: consuming ExecutorJob) {
        // Looked up for every job: a session that reconnects moves to its new connection's thread.
        if let loop = session?.connectionTaskExecutor {
            loop.enqueue(job)
        } else {
            globalConcurrentExecutor.enqueue(job)
        }
    }
}
