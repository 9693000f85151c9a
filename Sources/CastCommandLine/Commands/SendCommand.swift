package import CastArguments
import CastCore
import CastSender
import Synchronization
import TerminalUI

/// `cast send NAMESPACE MESSAGE [--wait S]`.
package struct SendCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["send"],
        summary: "Send a message on a custom channel of the running receiver app.",
        arguments: "NAMESPACE MESSAGE",
        discussion:
            "NAMESPACE starts with urn:x-cast:. Replies that arrive within --wait seconds are printed, one per line.",
        options: [.value("wait", "S", help: "Print replies for this many seconds (default 0).")],
        examples: [
            #"cast send urn:x-cast:com.example.game '{"type":"PING"}' --wait 2"#
        ]
    )
    /// The namespace.
    package var namespace: String
    /// The message text.
    package var message: String
    /// How long to print replies.
    package var wait: Double

    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        let values = try arguments.positionals(2...2, for: Self.spec, names: "NAMESPACE and MESSAGE")
        namespace = values[0]
        message = values[1]
        wait = try arguments.double("wait", for: Self.spec) ?? 0
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
        let printer = ReplyPrinter(output: runtime.output)
        channel.delegate = printer
        session.add(channel)
        try channel.sendTextMessage(message)
        if wait > 0 {
            try? await Task.sleep(for: .milliseconds(Int(wait * 1000)))
        }
        session.remove(channel)
        withExtendedLifetime(printer) {}
    }
}

/// Prints each reply on its own line (a line feed or tab in a reply shows as `?`).
private final class ReplyPrinter: GenericChannelDelegate {
    let output: OutputSink
    init(output: OutputSink) { self.output = output }
    func castChannel(_ channel: GenericChannel, didReceiveTextMessage message: String, withNamespace namespace: String)
    {
        output.line(TerminalText.sanitized(message))
    }
}
