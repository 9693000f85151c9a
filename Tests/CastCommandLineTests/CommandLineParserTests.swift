import CastArguments
import CastSync
import Foundation
import Testing

@testable import CastCommandLine

/// Collects what a command writes.
final class CapturedOutput: Sendable {
    private let text = Locked<(out: String, err: String)>(("", ""))
    var out: String { text.withLock { $0.out } }
    var err: String { text.withLock { $0.err } }

    var sink: OutputSink {
        OutputSink(
            errorIsTerminal: false,
            usesColor: false,
            out: { line in self.text.withLock { $0.out += line } },
            err: { line in self.text.withLock { $0.err += line } }
        )
    }

    /// Runs `cast arguments` in process (only for invocations that never reach the network).
    static func run(_ arguments: [String]) async -> (code: ExitCode, output: CapturedOutput) {
        let output = CapturedOutput()
        let code = await CastCommandLine.run(arguments, environment: ["HOME": "/nonexistent"], output: output.sink)
        return (code, output)
    }
}

@Suite struct CommandLineParserTests {
    let parser = CommandLineParser()

    @Test func globalOptionsAnywhereAndSubcommands() throws {
        var invocation = try parser.parse(["-d", "Den", "queue", "add", "https://x.invalid/a.mp4", "--title", "A"])
        #expect(invocation.command == QueueAddCommand.self)
        #expect(invocation.arguments.value("device") == "Den")
        #expect(invocation.arguments.value("title") == "A")
        #expect(invocation.arguments.positionals == ["https://x.invalid/a.mp4"])

        invocation = try parser.parse(["play", "u", "--device=127.0.0.2:8010", "-q", "a", "--queue", "b", "-t", "T"])
        #expect(invocation.command == PlayCommand.self)
        #expect(invocation.arguments.value("device") == "127.0.0.2:8010")
        #expect(invocation.arguments.values["queue"] == ["a", "b"])
        #expect(invocation.arguments.value("title") == "T")

        invocation = try parser.parse(["tracks"])
        #expect(invocation.command == TracksCommand.self)
        invocation = try parser.parse(["tracks", "on", "2"])
        #expect(invocation.command == TracksOnCommand.self)
        #expect(invocation.arguments.positionals == ["2"])
    }

    @Test func signedNumbersArePositionals() throws {
        let invocation = try parser.parse(["seek", "-10"])
        #expect(invocation.arguments.positionals == ["-10"])
        let command = try SeekCommand(parsing: invocation.arguments)
        #expect(command.target == SeekTarget("-10"))
        let dashDash = try parser.parse(["send", "--", "urn:x-cast:a", "--not-an-option"])
        #expect(dashDash.arguments.positionals == ["urn:x-cast:a", "--not-an-option"])
    }

    @Test func typedCommands() throws {
        let play = try PlayCommand(
            parsing: parser.parse([
                "play", "https://x.invalid/a.mp4", "--start", "1:30", "--content-type", "audio/mpeg",
            ]).arguments
        )
        #expect(play.start == 90)
        #expect(play.contentType == "audio/mpeg")
        let volume = try VolumeCommand(parsing: parser.parse(["volume", "--stream", "25%"]).arguments)
        #expect(volume.level.fraction == 0.25)
        #expect(volume.stream)
        let status = try StatusCommand(parsing: parser.parse(["status", "-w", "--json"]).arguments)
        #expect(status.watch && status.json)
        let devices = try DevicesCommand(parsing: parser.parse(["devices", "--timeout", "1.5"]).arguments)
        #expect(devices.timeout == 1.5)
    }

    /// Every usage error exits with 2 and names what was wrong.
    @Test(arguments: [
        ([], "missing command"),
        (["dance"], "unknown command 'dance'"),
        (["--bogus"], "unknown option '--bogus'"),
        (["pause", "--bogus"], "unknown option '--bogus'"),
        (["pause", "now"], "unexpected argument 'now'"),
        (["play"], "missing URL or FILE"),
        (["play", "ftp://x/a.mp4"], "neither an http(s) URL nor a file"),
        (["play", "https://x/a.mp4", "--start", "+5"], "--start expects a position"),
        (["play", "https://x/a.mp4", "--content-type", "mp4"], "--content-type expects a MIME type"),
        (["play", "https://x/a.mp4", "--title"], "--title needs a value"),
        (["seek"], "missing POS"),
        (["seek", "soon"], "'soon' is not a position"),
        (["volume", "1.5"], "'1.5' is not a level"),
        (["volume"], "missing LEVEL"),
        (["rate", "fast"], "'fast' is not a number"),
        (["rate", "3"], "outside 0.5…2"),
        (["queue"], "expected one of: add, list, remove"),
        (["queue", "add", "a.mp4"], "is not an http(s) URL"),
        (["queue", "remove", "x"], "'x' is not an item ID"),
        (["tracks", "on"], "missing ID"),
        (["tracks", "on", "one"], "'one' is not a track ID"),
        (["send", "urn:x-cast:a"], "missing NAMESPACE and MESSAGE"),
        (["send", "com.example", "{}"], "must start with urn:x-cast:"),
        (["send", "urn:x-cast:a", "{}", "--wait", "soon"], "--wait expects a number"),
        (["send", "urn:x-cast:a", "{}", "--replies", "0"], "--replies expects a whole number from 1 to 1000"),
        (["send", "urn:x-cast:a", "{}", "--replies", "1.5"], "got '1.5'"),
        (["send", "urn:x-cast:a", "{}", "--replies", "1e300"], "--replies expects a whole number"),
        (["devices", "--timeout", "0"], "--timeout must be between"),
        (["devices", "--json=yes"], "--json takes no value"),
        (["info", "--setup-port", "99999"], "--setup-port expects a port"),
        (["status", "--json", "extra"], "unexpected argument 'extra'"),
    ])
    func usageErrors(arguments: [String], message: String) async {
        let (code, output) = await CapturedOutput.run(arguments)
        #expect(code == .usage)
        #expect(output.err.contains(message), "\(output.err)")
        #expect(output.err.contains("See 'cast"))
        #expect(output.out.isEmpty)
    }
}
