package import CastArguments
import CastSender

/// `cast quit`.
package struct QuitCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["quit"],
        summary: "Stop the receiver app and forget the saved session.",
        examples: ["cast quit"]
    )

    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
    }

    package func run(in runtime: CommandRuntime) async throws {
        _ = try await runtime.session(launching: false)
        await runtime.context.sessionManager.endSessionAndStopCasting()
    }
}
