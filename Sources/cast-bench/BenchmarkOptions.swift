import Foundation

/// The command line of `cast-bench`.
struct BenchmarkOptions: Equatable {
    /// The groups to run, in table order; empty means every group.
    var groups: [String] = []
    /// Fewer iterations everywhere: a smoke run whose figures are rough.
    var quick = false
    var showHelp = false

    /// Parses `arguments` (without the program name) against the known group names.
    /// Groups are named with `--rows a,b` (repeatable) or as plain arguments.
    static func parse(_ arguments: [String], known: [String]) throws(BenchmarkFailure) -> BenchmarkOptions {
        var options = BenchmarkOptions()
        var names: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-h", "--help":
                options.showHelp = true
            case "--quick":
                options.quick = true
            case "--rows":
                index += 1
                guard index < arguments.count else { throw BenchmarkFailure("--rows needs a list of groups") }
                names += arguments[index].split(separator: ",").map(String.init)
            default:
                if argument.hasPrefix("--rows=") {
                    names += argument.dropFirst("--rows=".count).split(separator: ",").map(String.init)
                } else if argument.hasPrefix("-") {
                    throw BenchmarkFailure("unknown option \(argument) (see --help)")
                } else {
                    names.append(argument)
                }
            }
            index += 1
        }
        let unknown = names.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            throw BenchmarkFailure(
                "unknown group \(unknown.joined(separator: ", ")); groups: \(known.joined(separator: ", "))"
            )
        }
        options.groups = known.filter { names.contains($0) }
        return options
    }

    /// The help text, listing `groups`.
    static func help(_ groups: [BenchmarkGroup]) -> String {
        var text = """
            USAGE: cast-bench [--rows GROUP[,GROUP...]] [--quick]

            Prints one table of swift-cast's figures: median and p99 where they apply.
            Build with -c release for meaningful figures (scripts/bench.sh does).

            OPTIONS:
              --rows LIST   Run only these groups (comma-separated; GROUP names may also be given
                            as plain arguments). Default: every group.
              --quick       Few iterations: a fast smoke run, rough figures.
              -h, --help    Show this help.

            GROUPS:

            """
        for group in groups {
            text += "  \(group.name.padding(toLength: 14, withPad: " ", startingAt: 0))\(group.summary)\n"
        }
        text += """

            ENVIRONMENT:
              CAST_BENCH_PYTHON     Python with PyChromecast 14 for the pychromecast group (without it
                                    that group prints swift-cast's figures only).
              CAST_BENCH_EMULATOR   The cast-emulator binary (default: the one beside cast-bench; else
                                    cast-bench serves the device itself in a child process).
            """
        return text
    }
}

/// Settings every group reads.
enum BenchmarkSettings {
    /// `--quick` was given: groups use a fraction of their usual iterations.
    static let quick = CommandLine.arguments.dropFirst().contains("--quick")

    /// `full` normally, `quick` in a quick run.
    static func count(_ full: Int, quick smoke: Int) -> Int { quick ? smoke : full }
}
