import CastSync

/// Runs a task for the lifetime of its owner and cancels it when the owner goes away.
final class OwnedTasks: Sendable {
    private let tasks = Locked<[Task<Void, Never>]>([])

    init() {}

    /// Starts `operation` and keeps it until ``cancelAll()`` or deinitialisation.
    func run(_ operation: @escaping @Sendable () async -> Void) {
        let task = Task { await operation() }
        tasks.withLock { $0.append(task) }
    }

    /// Cancels every task.
    func cancelAll() {
        for task in tasks.withLock({ tasks in
            defer { tasks.removeAll() }
            return tasks
        }) {
            task.cancel()
        }
    }

    deinit { cancelAll() }
}
