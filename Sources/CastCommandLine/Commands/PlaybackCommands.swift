package import CastArguments
import CastCore
import CastSender

/// `cast pause`.
package struct PauseCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["pause"],
        summary: "Pause the media playing on the device.",
        examples: ["cast pause", "cast -d Kitchen pause"]
    )
    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
    }
    package func run(in runtime: CommandRuntime) async throws {
        try await runtime.activeMedia().client.pause().result
    }
}

/// `cast resume`.
package struct ResumeCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["resume"],
        summary: "Resume paused media.",
        examples: ["cast resume"]
    )
    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
    }
    package func run(in runtime: CommandRuntime) async throws {
        try await runtime.activeMedia().client.play().result
    }
}

/// `cast stop`.
package struct StopCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["stop"],
        summary: "Stop the media (the receiver app keeps running; see 'cast quit').",
        examples: ["cast stop"]
    )
    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
    }
    package func run(in runtime: CommandRuntime) async throws {
        try await runtime.activeMedia().client.stop().result
    }
}

/// `cast seek POS`.
package struct SeekCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["seek"],
        summary: "Seek to a position, or by an offset.",
        arguments: "POS",
        discussion: "POS is seconds (90), mm:ss (1:30) or hh:mm:ss (1:02:03); +N or -N seeks relative to now.",
        examples: ["cast seek 1:30", "cast seek +30", "cast seek -10", "cast seek 1:02:03"]
    )
    /// Where to seek.
    package var target: SeekTarget

    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        let text = try arguments.positionals(1...1, for: Self.spec, names: "POS")[0]
        guard let target = SeekTarget(text) else {
            throw CommandLineError(
                .invalidValue,
                "cast seek: '\(text)' is not a position (seconds, mm:ss, hh:mm:ss, or ±N)",
                commandName: Self.spec.name
            )
        }
        self.target = target
    }
    package func run(in runtime: CommandRuntime) async throws {
        let client = try await runtime.activeMedia().client
        var seconds = target.seconds
        if target.isRelative {
            seconds = max(0, client.approximateStreamPosition + target.seconds)
        }
        try await client.seek(MediaSeekOptions(interval: seconds)).result
    }
}

/// `cast rate R`.
package struct RateCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["rate"],
        summary: "Set the playback rate (0.5 to 2).",
        arguments: "R",
        examples: ["cast rate 1.5", "cast rate 1"]
    )
    /// The rate.
    package var rate: Double

    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        let text = try arguments.positionals(1...1, for: Self.spec, names: "R")[0]
        guard let rate = Double(text), rate.isFinite else {
            throw CommandLineError(.invalidValue, "cast rate: '\(text)' is not a number", commandName: Self.spec.name)
        }
        self.rate = rate
    }
    package func validate() throws(CommandLineError) {
        guard (0.5...2).contains(rate) else {
            throw CommandLineError(.invalidValue, "cast rate: \(rate) is outside 0.5…2", commandName: Self.spec.name)
        }
    }
    package func run(in runtime: CommandRuntime) async throws {
        try await runtime.activeMedia().client.setPlaybackRate(rate).result
    }
}

/// `cast next`.
package struct NextCommand: CastCommand {
    package static let spec = CommandSpec(path: ["next"], summary: "Play the next queue item.", examples: ["cast next"])
    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
    }
    package func run(in runtime: CommandRuntime) async throws {
        try await runtime.activeMedia().client.queueNextItem().result
    }
}

/// `cast prev`.
package struct PreviousCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["prev"],
        summary: "Play the previous queue item.",
        examples: ["cast prev"]
    )
    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
    }
    package func run(in runtime: CommandRuntime) async throws {
        try await runtime.activeMedia().client.queuePreviousItem().result
    }
}

/// `cast skip-ad`.
package struct SkipAdCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["skip-ad"],
        summary: "Skip the ad playing now, when the receiver allows it.",
        examples: ["cast skip-ad"]
    )
    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
    }
    package func run(in runtime: CommandRuntime) async throws {
        try await runtime.activeMedia().client.skipAd().result
    }
}
