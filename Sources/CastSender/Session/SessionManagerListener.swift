#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A session lifecycle event, delivered in order.
///
/// A struct, not an enum, so that a later release can add a kind of event without breaking
/// an app's `switch`: switch over ``kind`` and keep a `default`.
///
/// ```swift
/// for await event in sessionManager.events() {
///     switch event.kind {
///     case .didStart, .didResume: showMiniController(for: event.session)
///     case .didEnd: hideMiniController(error: event.error)
///     default: break
///     }
/// }
/// ```
public struct SessionEvent: Sendable {
    /// What happened.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The name of the kind, as in `GCKSessionManagerListener`'s methods (`didStart`).
        public let description: String

        private init(_ name: String) { description = name }

        /// The session is about to start.
        public static let willStart = Kind("willStart")
        /// The session started.
        public static let didStart = Kind("didStart")
        /// The session failed to start; ``SessionEvent/error`` says why.
        public static let didFailToStart = Kind("didFailToStart")
        /// The session is about to end.
        public static let willEnd = Kind("willEnd")
        /// The session ended; ``SessionEvent/error`` is `nil` when the app ended it.
        public static let didEnd = Kind("didEnd")
        /// The session was suspended; ``SessionEvent/suspendReason`` says why.
        public static let didSuspend = Kind("didSuspend")
        /// The session is about to resume.
        public static let willResume = Kind("willResume")
        /// The session resumed.
        public static let didResume = Kind("didResume")
        /// The session failed to resume; ``SessionEvent/error`` says why.
        public static let didFailToResume = Kind("didFailToResume")
        /// The device volume or mute state changed: ``SessionEvent/volume``,
        /// ``SessionEvent/isMuted``.
        public static let didReceiveDeviceVolume = Kind("didReceiveDeviceVolume")
        /// The device status text changed: ``SessionEvent/statusText``.
        public static let didReceiveDeviceStatus = Kind("didReceiveDeviceStatus")
    }

    /// The events as the SDK produces them; the public accessors read this.
    enum Payload: Sendable {
        case willStart(CastSession)
        case didStart(CastSession)
        case didFailToStart(CastSession, CastError)
        case willEnd(CastSession)
        case didEnd(CastSession, CastError?)
        case didSuspend(CastSession, SessionSuspendReason)
        case willResume(CastSession)
        case didResume(CastSession)
        case didFailToResume(CastSession, CastError)
        case didReceiveDeviceVolume(CastSession, volume: Double, muted: Bool)
        case didReceiveDeviceStatus(CastSession, statusText: String?)
    }

    let payload: Payload

    init(_ payload: Payload) { self.payload = payload }

    /// What happened.
    public var kind: Kind {
        switch payload {
        case .willStart: .willStart
        case .didStart: .didStart
        case .didFailToStart: .didFailToStart
        case .willEnd: .willEnd
        case .didEnd: .didEnd
        case .didSuspend: .didSuspend
        case .willResume: .willResume
        case .didResume: .didResume
        case .didFailToResume: .didFailToResume
        case .didReceiveDeviceVolume: .didReceiveDeviceVolume
        case .didReceiveDeviceStatus: .didReceiveDeviceStatus
        }
    }

    /// The session the event is about.
    public var session: CastSession {
        switch payload {
        case .willStart(let session), .didStart(let session), .didFailToStart(let session, _),
            .willEnd(let session), .didEnd(let session, _), .didSuspend(let session, _),
            .willResume(let session), .didResume(let session), .didFailToResume(let session, _),
            .didReceiveDeviceVolume(let session, _, _), .didReceiveDeviceStatus(let session, _):
            session
        }
    }

    /// Why the session failed to start or resume, or ended; `nil` for other kinds and when the
    /// app ended the session.
    public var error: CastError? {
        switch payload {
        case .didFailToStart(_, let error), .didFailToResume(_, let error): error
        case .didEnd(_, let error): error
        default: nil
        }
    }

    /// Why the session was suspended (``Kind/didSuspend``); `nil` for other kinds.
    public var suspendReason: SessionSuspendReason? {
        if case .didSuspend(_, let reason) = payload { reason } else { nil }
    }

    /// The device volume, 0...1 (``Kind/didReceiveDeviceVolume``); `nil` for other kinds.
    public var volume: Double? {
        if case .didReceiveDeviceVolume(_, let volume, _) = payload { volume } else { nil }
    }

    /// Whether the device is muted (``Kind/didReceiveDeviceVolume``); `nil` for other kinds.
    public var isMuted: Bool? {
        if case .didReceiveDeviceVolume(_, _, let muted) = payload { muted } else { nil }
    }

    /// The device status text (``Kind/didReceiveDeviceStatus``); `nil` for other kinds and
    /// when the device shows none.
    public var statusText: String? {
        if case .didReceiveDeviceStatus(_, let text) = payload { text } else { nil }
    }
}

extension SessionEvent {
    /// An event of kind ``Kind/willStart``.
    public static func willStart(_ session: CastSession) -> SessionEvent { SessionEvent(.willStart(session)) }
    /// An event of kind ``Kind/didStart``.
    public static func didStart(_ session: CastSession) -> SessionEvent { SessionEvent(.didStart(session)) }
    /// An event of kind ``Kind/didFailToStart``.
    public static func didFailToStart(_ session: CastSession, _ error: CastError) -> SessionEvent {
        SessionEvent(.didFailToStart(session, error))
    }
    /// An event of kind ``Kind/willEnd``.
    public static func willEnd(_ session: CastSession) -> SessionEvent { SessionEvent(.willEnd(session)) }
    /// An event of kind ``Kind/didEnd``; `error` is `nil` when the app ended the session.
    public static func didEnd(_ session: CastSession, _ error: CastError?) -> SessionEvent {
        SessionEvent(.didEnd(session, error))
    }
    /// An event of kind ``Kind/didSuspend``.
    public static func didSuspend(_ session: CastSession, _ reason: SessionSuspendReason) -> SessionEvent {
        SessionEvent(.didSuspend(session, reason))
    }
    /// An event of kind ``Kind/willResume``.
    public static func willResume(_ session: CastSession) -> SessionEvent { SessionEvent(.willResume(session)) }
    /// An event of kind ``Kind/didResume``.
    public static func didResume(_ session: CastSession) -> SessionEvent { SessionEvent(.didResume(session)) }
    /// An event of kind ``Kind/didFailToResume``.
    public static func didFailToResume(_ session: CastSession, _ error: CastError) -> SessionEvent {
        SessionEvent(.didFailToResume(session, error))
    }
    /// An event of kind ``Kind/didReceiveDeviceVolume``.
    public static func didReceiveDeviceVolume(_ session: CastSession, volume: Double, muted: Bool) -> SessionEvent {
        SessionEvent(.didReceiveDeviceVolume(session, volume: volume, muted: muted))
    }
    /// An event of kind ``Kind/didReceiveDeviceStatus``.
    public static func didReceiveDeviceStatus(_ session: CastSession, statusText: String?) -> SessionEvent {
        SessionEvent(.didReceiveDeviceStatus(session, statusText: statusText))
    }
}

extension SessionEvent: CustomStringConvertible {
    /// The kind and the session's device, for logs.
    public var description: String {
        "SessionEvent(\(kind), \(session.device.friendlyName ?? session.device.id.uuidString))"
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
        switch payload {
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
