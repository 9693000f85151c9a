import CastCore
import CastSender
import Foundation
import TerminalUI

/// The custom-channel screen of the codelab's advanced features: a text channel on the
/// HelloWorld sample's namespace, registered with the session, where the user types a
/// message for the receiver app and sees its replies.
///
/// The channel connects when the session does and the running receiver app lists the
/// namespace (the built-in device's media receiver answers on it; a real Default Media
/// Receiver does not, and the screen says so).
@MainActor
final class CustomChannelScreen {
    /// The codelab's namespace.
    nonisolated static let namespace = "urn:x-cast:com.google.cast.sample.helloworld"
    /// The most lines kept.
    static let maximumLines = 200
    /// The longest message typed.
    static let maximumInput = 200

    /// One line of the conversation.
    struct Line: Equatable {
        enum Kind: Equatable {
            case sent
            case received
            case note
        }

        var kind: Kind
        var text: String
    }

    /// What the channel tells the screen, from the SDK's callback queue.
    enum Event: Sendable {
        case connected
        case disconnected
        case received(String)
    }

    /// The channel: the codelab's subclass style.
    final class TextChannel: CastChannel, @unchecked Sendable {
        // Sendable by construction: besides the superclass's locked state it holds only a
        // continuation, which is Sendable.
        let events: AsyncStream<Event>.Continuation

        init(events: AsyncStream<Event>.Continuation) throws(CastError) {
            self.events = events
            try super.init(namespace: CustomChannelScreen.namespace)
        }

        override func didReceiveTextMessage(_ message: String) { events.yield(.received(message)) }
        override func didConnect() { events.yield(.connected) }
        override func didDisconnect() { events.yield(.disconnected) }
    }

    private(set) var lines: [Line] = []
    var input = ""
    private(set) var isConnected = false
    private let channel: TextChannel?
    private var session: CastSession?
    private var task: Task<Void, Never>?

    /// - Parameter changed: called when something arrived.
    init(changed: @escaping @MainActor () -> Void) {
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        channel = try? TextChannel(events: continuation)
        task = Task { [weak self] in
            for await event in stream {
                self?.handle(event)
                changed()
            }
        }
    }

    deinit {
        // Ends the stream, and with it the task that reads it.
        channel?.events.finish()
    }

    /// Registers the channel with `session` (any time: it connects when it can).
    func attach(to session: CastSession?) {
        guard let channel, session !== self.session else { return }
        self.session?.remove(channel)
        self.session = session
        isConnected = channel.isConnected
        session?.add(channel)
    }

    /// Whether the running receiver app lists the namespace; `nil` without a session.
    var appListsNamespace: Bool? {
        guard let application = session?.applicationMetadata else { return nil }
        return application.supports(namespace: Self.namespace)
    }

    /// The running receiver app's name.
    var appName: String? {
        session?.applicationMetadata.map { $0.displayName ?? $0.appID }
    }

    /// Sends what was typed; a failure (not connected, too long) becomes a note.
    func send() {
        let text = input.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return }
        guard let channel else {
            append(Line(kind: .note, text: "The channel could not be created"))
            return
        }
        do {
            try channel.sendTextMessage(text)
            append(Line(kind: .sent, text: text))
            input = ""
        } catch {
            append(Line(kind: .note, text: "Not sent: \(error.description)"))
        }
    }

    private func handle(_ event: Event) {
        switch event {
        case .connected:
            isConnected = true
            append(Line(kind: .note, text: "Connected on \(Self.namespace)"))
        case .disconnected:
            isConnected = false
            append(Line(kind: .note, text: "Disconnected"))
        case .received(let message):
            append(Line(kind: .received, text: message))
        }
    }

    private func append(_ line: Line) {
        lines.append(line)
        if lines.count > Self.maximumLines { lines.removeFirst(lines.count - Self.maximumLines) }
    }
}
