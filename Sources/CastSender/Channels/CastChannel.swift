import CastSync
import Dispatch

/// A text channel on an app namespace (as `GCKCastChannel`). Subclass it and override
/// ``didReceiveTextMessage(_:)``, ``didConnect()`` and ``didDisconnect()``, or use
/// ``GenericChannel`` with a delegate.
///
/// Register channels with `CastSession.add(_:)` at any time; a channel is connected
/// while its session is connected and the receiver app lists its namespace.
///
/// ```swift
/// final class HelloChannel: CastChannel, @unchecked Sendable {
///     override func didReceiveTextMessage(_ message: String) { print(message) }
/// }
/// let channel = try HelloChannel(namespace: "urn:x-cast:com.example.hello")
/// session.add(channel)
/// try channel.sendTextMessage("Hello World")
/// ```
///
/// Subclasses must be safe to use from several threads (callbacks run on the context's
/// callback queue, sends may come from anywhere).
open class CastChannel: @unchecked Sendable {
    // Sendable by construction: the only mutable state is inside `state`, a `Locked`.
    struct Route: Sendable {
        var connection: DeviceConnection
        var senderID: String
        var transportID: String
        var callbackQueue: DispatchQueue
        var logger: CastLogger
    }

    private struct State {
        var route: Route?
        var nextRequestID = 1
    }

    private let state = Locked(State())

    /// The namespace, starting with `urn:x-cast:`.
    public let protocolNamespace: CastNamespace

    /// Creates a channel.
    /// - Throws: ``CastError/Code/invalidRequest`` when `namespace` does not start with
    ///   `urn:x-cast:` followed by a name, or lies under the platform's reserved
    ///   `urn:x-cast:com.google.cast.` prefix.
    public init(namespace: String) throws(CastError) {
        guard let namespace = CastNamespace(custom: namespace) else {
            throw CastError(
                .invalidRequest,
                "channel namespace '\(namespace)' is invalid: it must start with 'urn:x-cast:', name an app namespace, and not use the reserved 'urn:x-cast:com.google.cast.' prefix"
            )
        }
        protocolNamespace = namespace
    }

    /// Whether messages can be sent now.
    public var isConnected: Bool { state.withLock { $0.route != nil } }

    /// Whether messages can be written now (the same as ``isConnected``).
    public var isWritable: Bool { isConnected }

    /// Sends a text message to the receiver app.
    /// - Throws: ``CastError/Code/channelNotConnected`` when the channel is not connected,
    ///   ``CastError/Code/messageTooBig`` or a network error when sending fails.
    public func sendTextMessage(_ message: String) throws(CastError) {
        guard let route = state.withLock({ $0.route }) else {
            throw CastError(.channelNotConnected, "channel \(protocolNamespace) is not connected")
        }
        route.logger.log(
            .debug,
            .channel,
            "channel message sent",
            metadata: ["cast.namespace": protocolNamespace.rawValue, "cast.bytes": "\(message.utf8.count)"]
        )
        do {
            try route.connection.send(
                CastMessage(
                    sourceID: route.senderID,
                    destinationID: route.transportID,
                    namespace: protocolNamespace,
                    text: message
                )
            )
        } catch {
            if error.code == .deviceNotConnected {
                throw CastError(.channelNotConnected, "channel \(protocolNamespace): \(error.reason)")
            }
            throw error
        }
    }

    /// A fresh request id for a custom protocol on this channel.
    public func generateRequestID() -> Int {
        state.withLock { state in
            defer { state.nextRequestID += 1 }
            return state.nextRequestID
        }
    }

    /// A text message arrived from the receiver app. Override it; the default does nothing.
    open func didReceiveTextMessage(_ message: String) {}

    /// The channel connected. Override it; the default does nothing.
    open func didConnect() {}

    /// The channel disconnected. Override it; the default does nothing.
    open func didDisconnect() {}

    // MARK: Session side

    func connect(_ route: Route) {
        let wasConnected = state.withLock { state -> Bool in
            defer { state.route = route }
            return state.route != nil
        }
        if !wasConnected {
            route.logger.log(
                .info,
                .channel,
                "channel connected",
                metadata: ["cast.namespace": protocolNamespace.rawValue, "cast.destination-id": route.transportID]
            )
            route.callbackQueue.async { self.didConnect() }
        }
    }

    func disconnect() {
        let route = state.withLock { state -> Route? in
            defer { state.route = nil }
            return state.route
        }
        if let route {
            route.logger.log(
                .info,
                .channel,
                "channel disconnected",
                metadata: ["cast.namespace": protocolNamespace.rawValue]
            )
            route.callbackQueue.async { self.didDisconnect() }
        }
    }

    func deliver(_ text: String) {
        guard let route = state.withLock({ $0.route }) else { return }
        route.logger.log(
            .debug,
            .channel,
            "channel message received",
            metadata: ["cast.namespace": protocolNamespace.rawValue, "cast.bytes": "\(text.utf8.count)"]
        )
        route.callbackQueue.async { self.didReceiveTextMessage(text) }
    }
}
