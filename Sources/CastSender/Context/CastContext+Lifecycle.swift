import CastSync

extension CastContext {
    /// Tells the context the app went to the background (for a terminal app: it is about to
    /// be stopped with Ctrl-Z), as GCK hears `UIApplicationDidEnterBackground`.
    ///
    /// With ``CastOptions/suspendSessionsWhenBackgrounded`` (the default) a connected session
    /// is suspended with ``SessionSuspendReason/appBackgrounded``: its connection is closed
    /// (the receiver app keeps playing), listeners hear `didSuspend`, and nothing reconnects
    /// until ``applicationWillEnterForeground()``. The call returns once the connection is
    /// gone, so the process may then stop. Without the option nothing changes: the app
    /// promises to keep the connection served while in the background.
    ///
    /// Cancellation does not stop the suspension; the call then returns without waiting for
    /// the connection to close.
    public func applicationDidEnterBackground() async {
        guard options.suspendSessionsWhenBackgrounded else {
            logger.log(.debug, .context, "app in background; sessions stay connected")
            return
        }
        guard let session = sessionManager.currentSession, session.connectionState == .connected else {
            logger.log(.debug, .context, "app in background; no connected session")
            return
        }
        logger.log(.info, .context, "app in background; suspending the session")
        suspendedForBackground.withLock { $0 = session }
        await sessionManager.suspend(session, reason: .appBackgrounded)
        await session.waitForClosedConnection()
    }

    /// Tells the context the app is coming back to the foreground (for a terminal app: it
    /// was continued with `fg`): a session suspended by ``applicationDidEnterBackground()``
    /// resumes on the same receiver session; listeners hear `willResume` then `didResume` (or
    /// `didFailToResume` when the receiver app is gone). Returns at once.
    public func applicationWillEnterForeground() {
        let session = suspendedForBackground.withLock { suspended -> CastSession? in
            defer { suspended = nil }
            return suspended
        }
        guard let session, sessionManager.currentSession === session, session.isSuspended else {
            logger.log(.debug, .context, "app in foreground; nothing to resume")
            return
        }
        logger.log(.info, .context, "app in foreground; resuming the session")
        sessionManager.resumeSession()
    }

    /// Tells the context the app is quitting.
    ///
    /// With ``CastOptions/stopReceiverApplicationWhenEndingSession`` the session ends and a
    /// connected session also stops the receiver app; the saved session is forgotten. Without
    /// it, a connected session is left running on the device: its connection closes, and with
    /// ``CastOptions/sessionStoreURL`` set the next launch resumes it. Quitting never resumes
    /// a suspended session first: one suspended for the background simply stays saved (or is
    /// forgotten, when the option stops receiver apps).
    ///
    /// Cancellation does not stop the ending or the suspension; the call then returns without
    /// waiting.
    public func applicationWillTerminate() async {
        guard let session = sessionManager.currentSession else { return }
        if options.stopReceiverApplicationWhenEndingSession {
            logger.log(.info, .context, "app quitting; ending the session and stopping the receiver app")
            await sessionManager.endSession(stopCasting: true)
            return
        }
        guard session.connectionState == .connected else {
            logger.log(.info, .context, "app quitting; the suspended session stays saved")
            return
        }
        logger.log(.info, .context, "app quitting; leaving the session running on the device")
        await sessionManager.suspend(session, reason: .appTerminated)
        await session.waitForClosedConnection()
    }
}
