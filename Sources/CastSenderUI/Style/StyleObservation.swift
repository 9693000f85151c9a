import CastSync

/// Keeps a style observer registered; cancelling or releasing it removes the observer.
public final class StyleObservation: Sendable {
    private let cancellation: Locked<(@Sendable () -> Void)?>

    init(_ cancel: @escaping @Sendable () -> Void) {
        cancellation = Locked(cancel)
    }

    /// Removes the observer.
    public func cancel() {
        let cancel = cancellation.withLock { value in
            defer { value = nil }
            return value
        }
        cancel?()
    }

    deinit { cancel() }
}
