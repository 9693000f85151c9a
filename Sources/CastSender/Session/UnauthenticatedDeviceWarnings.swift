import CastSync

/// Remembers which devices a context has already warned about accepting without
/// authentication, so that each device is named in the log once, not on every connection.
final class UnauthenticatedDeviceWarnings: Sendable {
    private let warned = Locked<Set<String>>([])

    /// Logs the warning for `deviceID` unless it was logged before.
    /// - Returns: whether the warning was logged now.
    @discardableResult
    func warnOnce(about deviceID: String, logger: CastLogger, metadata: @autoclosure () -> [String: String]) -> Bool {
        let first = warned.withLock { $0.insert(deviceID).inserted }
        guard first else { return false }
        logger.log(.warning, .deviceAuth, "device accepted without authentication", metadata: metadata())
        return true
    }
}
