import Testing

@testable import CastCommandLine

@Suite struct HelpTextTests {
    @Test func seekHelpSnapshot() async {
        let (code, output) = await CapturedOutput.run(["seek", "--help"])
        #expect(code == .success)
        let expected = """
            cast seek — Seek to a position, or by an offset.

            USAGE: cast seek POS [options]

            POS is seconds (90), mm:ss (1:30) or hh:mm:ss (1:02:03); +N or -N seeks relative to now.

            OPTIONS:
              -d, --device NAME|HOST[:PORT]  The device: a friendly name (prefix), or an address.
                  --interface IF             Discover on this interface (repeatable); else CAST_DISCOVERY_INTERFACES.
                  --trust-root FILE          Also trust device roots from this PEM file (repeatable); else CAST_TRUST_ROOTS.
                  --insecure                 Accept devices that do not authenticate (as curl -k); else CAST_INSECURE=1.
              -h, --help                     Show help for the command.

            EXAMPLES:
              cast seek 1:30
              cast seek +30
              cast seek -10
              cast seek 1:02:03

            """
        #expect(output.out == expected)
    }

    @Test func volumeHelpSnapshot() async {
        let (code, output) = await CapturedOutput.run(["-h", "volume"])
        #expect(code == .success)
        let expected = """
            cast volume — Set the device volume (or the stream's with --stream).

            USAGE: cast volume LEVEL [options]

            LEVEL is a fraction from 0 to 1 (0.4) or a percentage (40%).

            OPTIONS:
                  --stream                   Set the media stream's volume instead of the device's.
                  --member NAME              Set one member's volume of the speaker group chosen with -d.
              -d, --device NAME|HOST[:PORT]  The device: a friendly name (prefix), or an address.
                  --interface IF             Discover on this interface (repeatable); else CAST_DISCOVERY_INTERFACES.
                  --trust-root FILE          Also trust device roots from this PEM file (repeatable); else CAST_TRUST_ROOTS.
                  --insecure                 Accept devices that do not authenticate (as curl -k); else CAST_INSECURE=1.
              -h, --help                     Show help for the command.

            EXAMPLES:
              cast volume 0.4
              cast volume 40%
              cast volume --stream 0.8
              cast -d Downstairs volume 30% --member Kitchen

            """
        #expect(output.out == expected)
    }

    @Test(arguments: CommandRegistry.all.map { $0.spec.name })
    func everyCommandHasHelpWithExamples(name: String) async {
        let (code, output) = await CapturedOutput.run(name.split(separator: " ").map(String.init) + ["--help"])
        #expect(code == .success)
        #expect(output.out.hasPrefix("cast \(name) — "))
        #expect(output.out.contains("USAGE: cast \(name)"))
        #expect(output.out.contains("EXAMPLES:\n  cast "))
        #expect(output.err.isEmpty)
    }

    @Test func topLevelHelpListsEveryCommand() async {
        let (code, output) = await CapturedOutput.run(["--help"])
        #expect(code == .success)
        #expect(output.out.hasPrefix("cast — cast media to Google Cast devices"))
        for type in CommandRegistry.all {
            #expect(output.out.contains("\n  \(type.spec.name) "))
        }
        #expect(output.out.contains("Exit codes: 0 success, 1 failure (no device, request failed), 2 usage error."))
    }

    @Test func version() async {
        let (code, output) = await CapturedOutput.run(["--version"])
        #expect(code == .success)
        #expect(output.out == "cast \(CastCommandLine.version)\n")
    }
}
