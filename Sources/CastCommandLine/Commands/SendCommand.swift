package import CastArguments
import CastCore
import CastSender
import Synchronization
import TerminalUI

/// `cast send NAMESPACE MESSAGE [--wait S] [--replies N]`.
package struct SendCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["send"],
        summary: "Send a message on a custom channel of the running receiver app.",
        arguments: "NAMESPACE MESSAGE",
        discussion:
            "NAMESPACE starts with urn:x-cast:. Replies that arrive within --wait seconds are printed, one per line;\nwith --replies the command ends as soon as that many arrived.",
        options: [
            .value("wait", "S", help: "Print replies for this many seconds (default 0, or 10 with --replies)."),
            .value("replies", "N", help: "End after N replies (1-1000) instead of waiting out --wait."),
        ],
        examples: [
            #"cast send urn:x-cast:com.example.game '{"type":"PING"}' --wait 2"#,
            #"cast send urn:x-cast:com.example.game '{"type":"PING"}' --replies 1"#,
        ]
    )
    /// The namespace.
    package var namespace: String
    /// The message text.
    package var message: String
    /// How long to print replies.
    package var wait: Double
    /// How many replies end the wait early, if any.
    package var replyLimit: Int?

    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        let values = try arguments.positionals(2...2, for: Self.spec, names: "NAMESPACE and MESSAGE")
        namespace = values[0]
        message = values[1]
        let limit = try arguments.double("replies", for: Self.spec)
        // Checked here, before the conversion to an integer could trap on a huge value.
        if let limit {
            guard limit == limit.rounded(), (1...1000).contains(limit) else {
                throw CommandLineError(
                    .invalidValue,
                    "cast send: --replies expects a whole number from 1 to 1000, got '\(arguments.value("replies") ?? "")'",
                    commandName: Self.spec.name
                )
            }
            replyLimit = Int(limit)
        }
        wait = try arguments.double("wait", for: Self.spec) ?? (limit == nil ? 0 : 10)
    }

    package func validate() throws(CommandLineError) {
        guard namespace.hasPrefix("urn:x-cast:"), namespace.count > "urn:x-cast:".count else {
            throw CommandLineError(
                .invalidValue,
                "cast send: the namespace must start with urn:x-cast:, got '\(namespace)'",
                commandName: Self.spec.name
            )
        }
        guard (0...600).contains(wait) else {
            throw CommandLineError(
                .invalidValue,
                "cast send: --wait must be between 0 and 600 seconds",
                commandName: Self.spec.name
            )
        }
    }

    package func run(in runtime: CommandRuntime) async throws {
        let session = try await runtime.session(launching: false)
        let channel = try GenericChannel(namespace: namespace)
        let (replies, received) = AsyncStream<Void>.makeStream()
        let printer = ReplyPrinter(output: runtime.output, received: received)
        channel.delegate = printer
        session.add(channel)
        try channel.sendTextMessage(message)
        if wait > 0 {
            let (wait, limit) = (wait, replyLimit)
            // Whichever comes first: the end of --wait, or the last of --replies.
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await Task.sleep(for: .milliseconds(Int(wait * 1000))) }
                if let limit {
                    group.addTask {
                        var count = 0
                        for await _ in replies {
                            count += 1
                            if count >= limit { return }
                        }
                    }
                }
                await group.next()
                group.cancelAll()
            }
        }
        received.finish()
        session.remove(channel)
        withExtendedLifetime(printer) {}
    }
}

/// Prints each reply on its own line (a line feed or tab in a reply shows as `?`).
private final class ReplyPrinter: GenericChannelDelegate {
    let output: OutputSink
    let received: AsyncStream<Void>.Continuation
    init(output: OutputSink, received: AsyncStream<Void>.Continuation) {
        self.output = output
        self.received = received
    }
    func castChannel(_ channel: GenericChannel, didReceiveTextMessage message: String, withNamespace namespace: String)
    {
        output.line(TerminalText.sanitized(message))
        received.yield()
    }
}
