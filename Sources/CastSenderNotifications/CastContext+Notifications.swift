public import CastSender
public import Foundation

extension CastContext {
    /// Posted by a context (the notification's object) on its callback queue when the expanded
    /// controls should be shown: a LOAD sent by one of its sessions succeeded, or the app called
    /// ``CastContext/presentDefaultExpandedMediaControls()`` (as
    /// `kGCKExpandedMediaControlsTriggeredNotification`).
    ///
    /// Reading this name (as an observer does to observe it) makes every context post it, from
    /// then on; a process that never reads it posts nothing. `context.expandedMediaControlsTriggers()`
    /// delivers the same events without `Foundation`.
    public static var expandedMediaControlsTriggeredNotification: Notification.Name {
        ContextNotificationPosting.install()
        return ContextNotificationPosting.expandedMediaControlsTriggered
    }
}
