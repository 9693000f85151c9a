import CastArguments
import Testing

@Suite struct ArgumentParserTests {
    static let options: [OptionSpec] = [
        .value("title", "T", short: "t", help: "A title."),
        .flag("json", help: "JSON output."),
        .optionalValue("mdns", "IFACES", help: "Advertise."),
        .value("count", "N", help: "How many."),
    ]
    let parser = ArgumentParser(program: "prog", options: Self.options)

    @Test func everyFormOfAnOption() throws {
        let parsed = try parser.parse(["-t", "A", "--title=B", "--title", "C", "--json", "x", "--count", "3", "y"])
        #expect(parsed.allValues("title") == ["A", "B", "C"])
        #expect(parsed.value("title") == "C")
        #expect(parsed.has("json"))
        #expect(parsed.positionals == ["x", "y"])
        #expect(try parsed.integer("count", in: 1...5, program: "prog") == 3)
    }

    @Test func signedNumbersAndTheDoubleDashArePositional() throws {
        let parsed = try parser.parse(["-10", "+1:30", "-0.5", "--", "--json", "-t"])
        #expect(parsed.positionals == ["-10", "+1:30", "-0.5", "--json", "-t"])
        #expect(!parsed.has("json"))
    }

    @Test func anOptionalValueIsTakenWhenOneFollows() throws {
        #expect(try parser.parse(["--mdns"]).value("mdns") == "")
        #expect(try parser.parse(["--mdns", "--json"]).value("mdns") == "")
        #expect(try parser.parse(["--mdns", "eth0,lo"]).value("mdns") == "eth0,lo")
        #expect(try parser.parse(["--mdns=lo"]).value("mdns") == "lo")
    }

    @Test func stopsAtTheFirstPositionalWhenAsked() throws {
        var parsed = ParsedArguments()
        let index = try parser.parse(["--json", "play", "--title", "T"], into: &parsed, stopAtPositional: true)
        #expect(index == 1)
        #expect(parsed.has("json") && parsed.values.isEmpty)
    }

    @Test(arguments: [
        (["--bogus"], UsageError.Code.unknownOption, "prog: unknown option '--bogus'"),
        (["-x"], .unknownOption, "prog: unknown option '-x'"),
        (["--title"], .missingValue, "prog: --title needs a value (T)"),
        (["--title="], .missingValue, "prog: --title= needs a value (T)"),
        (["--json=yes"], .invalidValue, "prog: --json takes no value"),
        (["--mdns="], .missingValue, "prog: --mdns= needs a value (IFACES)"),
    ])
    func mistakesAreNamed(arguments: [String], code: UsageError.Code, text: String) {
        #expect {
            try parser.parse(arguments)
        } throws: { error in
            guard let error = error as? UsageError else { return false }
            return error.code == code && error.description == text
                && error.report == "error: \(text)\nSee 'prog --help'."
        }
    }

    @Test func typedValuesAreCheckedWhereTheyEnter() throws {
        let parsed = try parser.parse(["--count", "99999999999999999999", "--title", "1e400"])
        #expect {
            try parsed.integer("count", in: 1...10, program: "prog")
        } throws: { error in
            (error as? UsageError)?.description
                == #"prog: --count: "99999999999999999999" is not a number from 1 to 10"#
        }
        #expect {
            try parsed.number("title", in: 0.1...3600, program: "prog")
        } throws: { error in
            (error as? UsageError)?.description == #"prog: --title: "1e400" is not a number from 0.1 to 3600"#
        }
        #expect {
            try parsed.choice("title", from: ["on", "off"], program: "prog")
        } throws: { error in
            (error as? UsageError)?.description == #"prog: --title: "1e400" is not on or off"#
        }
    }

    @Test func portsAreZeroTo65535() throws {
        #expect(try parser.parse(["--count", "8009"]).port("count", program: "prog") == 8009)
        #expect(throws: UsageError.self) { try parser.parse(["--count", "65536"]).port("count", program: "prog") }
        #expect(throws: UsageError.self) { try parser.parse(["--count", "-1"]).port("count", program: "prog") }
    }
}

@Suite struct HelpTextTests {
    @Test func theLayoutEveryProgramShares() {
        let text = HelpText(
            program: "prog",
            summary: "does things.",
            usage: "[options] FILE",
            discussion: ["A paragraph."],
            options: [
                .value("device", "NAME", short: "d", help: "The device."),
                .flag("json", help: "JSON output,\non two lines."),
            ],
            sections: [HelpText.Section("EXAMPLES", ["prog a.mp4"])]
        ).text
        #expect(
            text == """
                prog — does things.

                USAGE: prog [options] FILE

                A paragraph.

                OPTIONS:
                  -d, --device NAME  The device.
                      --json         JSON output,
                                     on two lines.

                EXAMPLES:
                  prog a.mp4

                """
        )
    }
}
