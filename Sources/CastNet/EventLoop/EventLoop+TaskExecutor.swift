/// A loop runs tasks that prefer it (`withTaskExecutorPreference`) on its own thread.
///
/// A task awaiting a reply on a connection of this loop is then resumed by the thread that
/// read the reply, after the event it is handling, with no other thread woken; what the task
/// sends is flushed by that thread too. Such a task must not block: while it runs, no
/// connection of the loop is served.
extension EventLoop: TaskExecutor {
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        core.enqueue { job.runSynchronously(on: executor) }
    }
}

extension EventLoop {
    /// Whether the caller runs on this loop's thread.
    package var isCurrentThread: Bool { core.isCurrentThread }
}
