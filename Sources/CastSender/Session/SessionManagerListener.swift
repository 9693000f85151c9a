/// A session lifecycle event, delivered in order.
public enum SessionEvent: Sendable {
    case willStart(CastSession)
    case didStart(CastSession)
    case didFailToStart(CastSession, CastError)
    case willEnd(CastSession)
    /// `error` is `nil` when the app ended the session.
    case didEnd(CastSession, CastError?)
    case didSuspend(CastSession, SessionSuspendReason)
    case willResume(CastSession)
    case didResume(CastSession)
    case didFailToResume(CastSession, CastError)
    /// The device volume or mute state changed.
    case didReceiveDeviceVolume(CastSession, volume: Double, muted: Bool)
    /// The device status text changed.
    case didReceiveDeviceStatus(CastSession, statusText: String?)

    /// The session the event is about.
    public var session: CastSession {
        switch self {
        case .willStart(let session), .didStart(let session), .didFailToStart(let session, _),
            .willEnd(let session), .didEnd(let session, _), .didSuspend(let session, _),
            .willResume(let session), .didResume(let session), .didFailToResume(let session, _),
            .didReceiveDeviceVolume(let session, _, _), .didReceiveDeviceStatus(let session, _):
            session
        }
    }
}

/// Hears a ``SessionManager`` (as `GCKSessionManagerListener`); every method has a default
/// that does nothing. Called in order on the context's callback queue.
public protocol SessionManagerListener: AnyObject, Sendable {
    func sessionManager(_ manager: SessionManager, willStart session: CastSession)
    func sessionManager(_ manager: SessionManager, didStart session: CastSession)
    func sessionManager(_ manager: SessionManager, didFailToStart session: CastSession, withError error: CastError)
    func sessionManager(_ manager: SessionManager, willEnd session: CastSession)
    func sessionManager(_ manager: SessionManager, didEnd session: CastSession, withError error: CastError?)
    func sessionManager(_ manager: SessionManager, didSuspend session: CastSession, with reason: SessionSuspendReason)
    func sessionManager(_ manager: SessionManager, willResume session: CastSession)
    func sessionManager(_ manager: SessionManager, didResume session: CastSession)
    func sessionManager(_ manager: SessionManager, didFailToResume session: CastSession, withError error: CastError)
    func sessionManager(
        _ manager: SessionManager,
        session: CastSession,
        didReceiveDeviceVolume volume: Double,
        muted: Bool
    )
    func sessionManager(_ manager: SessionManager, session: CastSession, didReceiveDeviceStatus statusText: String?)
}

extension SessionManagerListener {
    public func sessionManager(_ manager: SessionManager, willStart session: CastSession) {}
    public func sessionManager(_ manager: SessionManager, didStart session: CastSession) {}
    public func sessionManager(
        _ manager: SessionManager,
        didFailToStart session: CastSession,
        withError error: CastError
    ) {}
    public func sessionManager(_ manager: SessionManager, willEnd session: CastSession) {}
    public func sessionManager(_ manager: SessionManager, didEnd session: CastSession, withError error: CastError?) {}
    public func sessionManager(
        _ manager: SessionManager,
        didSuspend session: CastSession,
        with reason: SessionSuspendReason
    ) {}
    public func sessionManager(_ manager: SessionManager, willResume session: CastSession) {}
    public func sessionManager(_ manager: SessionManager, didResume session: CastSession) {}
    public func sessionManager(
        _ manager: SessionManager,
        didFailToResume session: CastSession,
        withError error: CastError
    ) {}
    public func sessionManager(
        _ manager: SessionManager,
        session: CastSession,
        didReceiveDeviceVolume volume: Double,
        muted: Bool
    ) {}
    public func sessionManager(
        _ manager: SessionManager,
        session: CastSession,
        didReceiveDeviceStatus statusText: String?
    ) {}
}

extension SessionEvent {
    func deliver(to listener: any SessionManagerListener, from manager: SessionManager) {
        switch self {
        case .willStart(let session): listener.sessionManager(manager, willStart: session)
        case .didStart(let session): listener.sessionManager(manager, didStart: session)
        case .didFailToStart(let session, let error):
            listener.sessionManager(manager, didFailToStart: session, withError: error)
        case .willEnd(let session): listener.sessionManager(manager, willEnd: session)
        case .didEnd(let session, let error): listener.sessionManager(manager, didEnd: session, withError: error)
        case .didSuspend(let session, let reason): listener.sessionManager(manager, didSuspend: session, with: reason)
        case .willResume(let session): listener.sessionManager(manager, willResume: session)
        case .didResume(let session): listener.sessionManager(manager, didResume: session)
        case .didFailToResume(let session, let error):
            listener.sessionManager(manager, didFailToResume: session, withError: error)
        case .didReceiveDeviceVolume(let session, let volume, let muted):
            listener.sessionManager(manager, session: session, didReceiveDeviceVolume: volume, muted: muted)
        case .didReceiveDeviceStatus(let session, let text):
            listener.sessionManager(manager, session: session, didReceiveDeviceStatus: text)
        }
    }
}
