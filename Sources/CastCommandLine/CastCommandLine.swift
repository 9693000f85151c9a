import CastArguments
import CastSender

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `cast` program: parses, validates and runs one command.
package enum CastCommandLine {
    /// The program's version.
    package static let version = "0.1.0"

    /// The top-level help.
    package static var helpText: String {
        let specs = CommandRegistry.all.map { $0.spec }
        return HelpText(
            program: "cast",
            summary: "cast media to Google Cast devices and control them from a terminal.",
            usage: "[-d NAME|HOST[:PORT]] COMMAND [ARGUMENTS] [options]",
            options: CommandSpec.globalOptions + [.flag("version", help: "Show the version.")],
            sections: [
                HelpText.Section(
                    "COMMANDS",
                    HelpText.columns(specs.map { ($0.name, $0.summary) }).map { String($0.dropFirst(2)) }
                ),
                HelpText.Section(
                    "NOTES",
                    [
                        "The device: -d, else CAST_DEVICE, else \"device\" in the config file.",
                        "Devices must authenticate with a certificate from Google's Cast roots (or a --trust-root).",
                        "A later invocation rejoins the session the previous one started. Configuration:",
                        "$XDG_CONFIG_HOME/cast/config.json (~/.config/cast/config.json), e.g. {\"device\": \"Living Room\"}.",
                        "Exit codes: 0 success, 1 failure (no device, request failed), 2 usage error.",
                        "Help of a command: cast COMMAND --help.",
                    ]
                ),
                HelpText.Section(
                    "EXAMPLES",
                    [
                        "cast devices",
                        "cast -d 'Living Room' play https://example.com/movie.mp4 --title 'A Movie'",
                        "cast play ./movie.mp4 --subtitle ./movie.srt",
                        "cast seek +30",
                        "cast status --watch",
                    ]
                ),
            ]
        ).text
    }

    /// Runs `arguments` (without the program name) and returns the exit code.
    package static func run(
        _ arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        output: OutputSink? = nil
    ) async -> ExitCode {
        let output = output ?? .standard(environment: environment)
        let invocation: Invocation
        let command: any CastCommand
        do throws(CommandLineError) {
            invocation = try CommandLineParser().parse(arguments)
            if invocation.wantsVersion, invocation.command == nil {
                output.line("cast \(version)")
                return .success
            }
            guard let type = invocation.command else {
                if invocation.wantsHelp {
                    output.line(helpText, terminator: "")
                    return .success
                }
                throw CommandLineError(.missingArgument, "cast: missing command")
            }
            if invocation.wantsHelp {
                output.line(type.spec.helpText, terminator: "")
                return .success
            }
            command = try type.init(parsing: invocation.arguments)
            try command.validate()
        } catch {
            report(error, output: output)
            return error.exitCode
        }
        do {
            let runtime = try CommandRuntime(globals: invocation.arguments, environment: environment, output: output)
            try await command.run(in: runtime)
            return .success
        } catch let error as CommandLineError {
            report(error, output: output)
            return error.exitCode
        } catch let error as CastError {
            output.error("cast \(type(of: command).spec.name): \(error.reason)")
            return .failure
        } catch {
            output.error("cast \(type(of: command).spec.name): \(error)")
            return .failure
        }
    }

    private static func report(_ error: CommandLineError, output: OutputSink) {
        var message = error.message
        if !message.hasPrefix("cast") {
            message = "cast\(error.commandName.map { " " + $0 } ?? ""): " + message
        }
        output.error(.styled("error: ", .red) + TerminalLine(message))
        if error.exitCode == .usage {
            let hint = error.commandName.map { "cast \($0) --help" } ?? "cast --help"
            output.error("See '\(hint)'.")
        }
    }
}

extension OutputSink {
    func line(_ text: String, terminator: String) {
        if terminator.isEmpty, text.hasSuffix("\n") {
            line(String(text.dropLast()))
        } else {
            line(text)
        }
    }
}
