import CastArguments
import Foundation

/// The command line of `cast-bench`.
struct BenchmarkOptions {
    static let program = "cast-bench"

    /// The groups to run, in table order; empty means every group.
    var groups: [String] = []
    /// Fewer iterations everywhere: a smoke run whose figures are rough.
    var quick = false
    var showHelp = false
    /// The options of the `fleet` group.
    var fleet = FleetSettings()

    /// The options, in the order help shows them (the fleet group's after the others).
    static let options: [OptionSpec] =
        [
            .value(
                "rows",
                "LIST",
                help: "Run only these groups (comma-separated; GROUP names may also be given\n"
                    + "as plain arguments; repeatable). Default: every group but those run only when named."
            ),
            .flag("quick", help: "Few iterations: a fast smoke run, rough figures."),
            .flag("help", short: "h", help: "Show this help."),
        ] + FleetSettings.options

    /// Parses `arguments` (without the program name) against the known group names.
    static func parse(_ arguments: [String], known: [String]) throws(UsageError) -> BenchmarkOptions {
        let parsed = try ArgumentParser(program: program, options: options).parse(arguments)
        var result = BenchmarkOptions()
        result.showHelp = parsed.has("help")
        result.quick = parsed.has("quick")
        result.fleet = try FleetSettings(parsed)
        let names = parsed.allValues("rows").flatMap { $0.split(separator: ",").map(String.init) } + parsed.positionals
        let unknown = names.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            throw UsageError(
                .invalidValue,
                program: program,
                "unknown group \(unknown.joined(separator: ", ")); groups: \(known.joined(separator: ", "))"
            )
        }
        result.groups = known.filter { names.contains($0) }
        return result
    }

    /// The help text, listing `groups`.
    static func help(_ groups: [BenchmarkGroup]) -> String {
        HelpText(
            program: program,
            summary: "swift-cast's figures in one table.",
            usage: "[--rows GROUP[,GROUP...]] [--quick] [GROUP...]",
            discussion: [
                "Prints one table: median and p99 where they apply. Build with -c release for",
                "meaningful figures (scripts/bench.sh does).",
            ],
            options: options,
            sections: [
                HelpText.Section(
                    "GROUPS",
                    HelpText.columns(groups.map { ($0.name, $0.summary) }).map { String($0.dropFirst(2)) }
                ),
                HelpText.Section(
                    "ENVIRONMENT",
                    HelpText.columns([
                        (
                            "CAST_BENCH_PYTHON",
                            "Python with PyChromecast 14 for the pychromecast and fleet groups\n"
                                + "(default: .venv/bin/python of the checkout; without it those groups\n"
                                + "print swift-cast's figures only)."
                        ),
                        (
                            "CAST_BENCH_EMULATOR",
                            "The cast-emulator binary (default: the one beside cast-bench; else\n"
                                + "cast-bench serves the device itself in a child process)."
                        ),
                    ]).map { String($0.dropFirst(2)) }
                ),
            ]
        ).text
    }
}

/// Settings every group reads.
enum BenchmarkSettings {
    /// `--quick` was given: groups use a fraction of their usual iterations.
    static let quick = CommandLine.arguments.dropFirst().contains("--quick")

    /// `full` normally, `quick` in a quick run.
    static func count(_ full: Int, quick smoke: Int) -> Int { quick ? smoke : full }
}
