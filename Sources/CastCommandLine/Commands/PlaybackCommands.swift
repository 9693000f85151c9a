import CastCore
import CastSender

/// `cast pause`.
public struct PauseCommand: CastCommand {
    public static let spec = CommandSpec(
        path: ["pause"],
        summary: "Pause the media playing on the device.",
        examples: ["cast pause", "cast -d Kitchen pause"]
    )
    public init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
    }
    public func run(in runtime: CommandRuntime) async throws {
        try await runtime.activeMedia().client.pause().result
    }
}

/// `cast resume`.
public struct ResumeCommand: CastCommand {
    public static let spec = CommandSpec(
        path: ["resume"],
        summary: "Resume paused media.",
        examples: ["cast resume"]
    )
    public init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
    }
    public func run(in runtime: CommandRuntime) async throws {
        try await runtime.activeMedia().client.play().result
    }
}

/// `cast stop`.
public struct StopCommand: CastCommand {
    public static let spec = CommandSpec(
        path: ["stop"],
        summary: "Stop the media (the receiver app keeps running; see 'cast quit').",
        examples: ["cast stop"]
    )
    public init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
    }
    public func run(in runtime: CommandRuntime) async throws {
        try await runtime.activeMedia().client.stop().result
    }
}

/// `cast seek POS`.
public struct SeekCommand: CastCommand {
    public static let spec = CommandSpec(
        path: ["seek"],
        summary: "Seek to a position, or by an offset.",
        arguments: "POS",
        discussion: "POS is seconds (90), mm:ss (1:30) or hh:mm:ss (1:02:03); +N or -N seeks relative to now.",
        examples: ["cast seek 1:30", "cast seek +30", "cast seek -10", "cast seek 1:02:03"]
    )
    /// Where to seek.
    public var target: SeekTarget

    public init(parsing arguments: ParsedArguments) throws(CommandLineError) {
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
    public func run(in runtime: CommandRuntime) async throws {
        let client = try await runtime.activeMedia().client
        var seconds = target.seconds
        if target.isRelative {
            seconds = max(0, client.approximateStreamPosition + target.seconds)
        }
        try await client.seek(MediaSeekOptions(interval: seconds)).result
    }
}

/// `cast rate R`.
public struct RateCommand: CastCommand {
    public static let spec = CommandSpec(
        path: ["rate"],
        summary: "Set the playback rate (0.5 to 2).",
        arguments: "R",
        examples: ["cast rate 1.5", "cast rate 1"]
    )
    /// The rate.
    public var rate: Double

    public init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        let text = try arguments.positionals(1...1, for: Self.spec, names: "R")[0]
        guard let rate = Double(text), rate.isFinite else {
            throw CommandLineError(.invalidValue, "cast rate: '\(text)' is not a number", commandName: Self.spec.name)
        }
        self.rate = rate
    }
    public func validate() throws(CommandLineError) {
        guard (0.5...2).contains(rate) else {
            throw CommandLineError(.invalidValue, "cast rate: \(rate) is outside 0.5…2", commandName: Self.spec.name)
        }
    }
    public func run(in runtime: CommandRuntime) async throws {
        try await runtime.activeMedia().client.setPlaybackRate(rate).result
    }
}

/// `cast next`.
public struct NextCommand: CastCommand {
    public static let spec = CommandSpec(path: ["next"], summary: "Play the next queue item.", examples: ["cast next"])
    public init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
    }
    public func run(in runtime: CommandRuntime) async throws {
        try await runtime.activeMedia().client.queueNextItem().result
    }
}

/// `cast prev`.
public struct PreviousCommand: CastCommand {
    public static let spec = CommandSpec(
        path: ["prev"],
        summary: "Play the previous queue item.",
        examples: ["cast prev"]
    )
    public init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
    }
    public func run(in runtime: CommandRuntime) async throws {
        try await runtime.activeMedia().client.queuePreviousItem().result
    }
}

/// `cast skip-ad`.
public struct SkipAdCommand: CastCommand {
    public static let spec = CommandSpec(
        path: ["skip-ad"],
        summary: "Skip the ad playing now, when the receiver allows it.",
        examples: ["cast skip-ad"]
    )
    public init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
    }
    public func run(in runtime: CommandRuntime) async throws {
        try await runtime.activeMedia().client.skipAd().result
    }
}
