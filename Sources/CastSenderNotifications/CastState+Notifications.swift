public import CastSender
public import Foundation

extension CastState {
    /// Posted by a ``CastContext`` (the notification's object) on its callback queue when its
    /// cast state changes (as `gckCastStateDidChange`); `userInfo[CastState.notificationKey]`
    /// holds the new ``CastState``.
    ///
    /// Reading this name (as an observer does to observe it) makes every context post it, from
    /// then on; a process that never reads it posts nothing. `context.castStateChanges()` and
    /// `context.observeCastState()` deliver the same changes without `Foundation`.
    public static var didChangeNotification: Notification.Name {
        ContextNotificationPosting.install()
        return ContextNotificationPosting.castStateDidChange
    }

    /// The `userInfo` key of ``didChangeNotification``.
    public static var notificationKey: String {
        ContextNotificationPosting.install()
        return ContextNotificationPosting.castStateKey
    }
}
