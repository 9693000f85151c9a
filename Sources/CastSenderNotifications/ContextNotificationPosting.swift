import CastSender
import Foundation

/// Posts the announcements of every ``CastContext`` as Google's SDK's notifications.
///
/// Installed the first time a notification's name or key is read: an observer has to name a
/// notification to receive it, so naming it is when posting starts to matter. A process that
/// never names one never installs it, and the SDK then neither posts nor loads `Foundation`.
/// (An observer of every name, `forName: nil`, gets them only once some code has read one.)
enum ContextNotificationPosting {
    static let castStateDidChange = Notification.Name("CastStateDidChangeNotification")
    static let expandedMediaControlsTriggered = Notification.Name("CastExpandedMediaControlsTriggeredNotification")
    static let castStateKey = "CastState"

    /// Makes every context post its notifications from now on (idempotent).
    static func install() {
        CastContext.installAnnouncementPosterIfAbsent(post)
    }

    @Sendable private static func post(_ context: CastContext, _ announcement: ContextAnnouncement) {
        switch announcement {
        case .castStateChanged(let state):
            NotificationCenter.default.post(
                name: castStateDidChange,
                object: context,
                userInfo: [castStateKey: state]
            )
        case .expandedMediaControlsTriggered:
            NotificationCenter.default.post(name: expandedMediaControlsTriggered, object: context)
        }
    }
}
