import CastSender

/// `cast quit`.
public struct QuitCommand: CastCommand {
    public static let spec = CommandSpec(
        path: ["quit"],
        summary: "Stop the receiver app and forget the saved session.",
        examples: ["cast quit"]
    )

    public init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
    }

    public func run(in runtime: CommandRuntime) async throws {
        _ = try await runtime.session(launching: false)
        await runtime.context.sessionManager.endSessionAndStopCasting()
    }
}
