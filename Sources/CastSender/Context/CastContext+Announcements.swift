import CastSync

/// Something a ``CastContext`` announces besides its streams, which another module may post
/// elsewhere: `CastSenderNotifications` posts each as the `NotificationCenter` notification
/// Google's SDK posts, so that this module needs no `Foundation`.
package enum ContextAnnouncement: Sendable, Equatable {
    /// The context's cast state changed to this one.
    case castStateChanged(CastState)
    /// The expanded media controls should be shown.
    case expandedMediaControlsTriggered
}

extension CastContext {
    /// Posts an announcement of a context; called on the context's callback queue after the
    /// listeners and streams of the same event.
    package typealias AnnouncementPoster = @Sendable (CastContext, ContextAnnouncement) -> Void

    /// The one poster of the process, set by the module that posts the notifications when an
    /// app first names one of them (nil: the SDK posts nothing, and loads no `Foundation`).
    private static let announcementPoster = Locked<AnnouncementPoster?>(nil)

    /// Installs `poster` unless one is installed already; every context then announces the
    /// events that happen from now on through it.
    package static func installAnnouncementPosterIfAbsent(_ poster: @escaping AnnouncementPoster) {
        announcementPoster.withLock { installed in
            if installed == nil { installed = poster }
        }
    }

    /// Removes the poster (tests: the state of a process whose app never named a notification).
    package static func removeAnnouncementPoster() {
        announcementPoster.withLock { $0 = nil }
    }

    /// What to run after the listeners of an event to announce it, or nil while no poster is
    /// installed, so a process without one does not even queue the work.
    func announcement(_ announcement: ContextAnnouncement) -> (@Sendable () -> Void)? {
        guard let poster = Self.announcementPoster.withLock({ $0 }) else { return nil }
        return { [self] in poster(self, announcement) }
    }
}
