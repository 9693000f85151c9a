import CastSender

/// `cast volume LEVEL [--stream]`.
public struct VolumeCommand: CastCommand {
    public static let spec = CommandSpec(
        path: ["volume"],
        summary: "Set the device volume (or the stream's with --stream).",
        arguments: "LEVEL",
        discussion: "LEVEL is a fraction from 0 to 1 (0.4) or a percentage (40%).",
        options: [.flag("stream", help: "Set the media stream's volume instead of the device's.")],
        examples: ["cast volume 0.4", "cast volume 40%", "cast volume --stream 0.8"]
    )
    /// The level.
    public var level: VolumeLevel
    /// Whether the stream volume is meant.
    public var stream: Bool

    public init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        let text = try arguments.positionals(1...1, for: Self.spec, names: "LEVEL")[0]
        guard let level = VolumeLevel(text) else {
            throw CommandLineError(
                .invalidValue,
                "cast volume: '\(text)' is not a level (0 to 1, or 0% to 100%)",
                commandName: Self.spec.name
            )
        }
        self.level = level
        stream = arguments.has("stream")
    }
    public func run(in runtime: CommandRuntime) async throws {
        if stream {
            try await runtime.activeMedia().client.setStreamVolume(level.fraction).result
        } else {
            let session = try await runtime.session(launching: false)
            try Self.requireAdjustableVolume(session, command: Self.spec.name)
            try await session.setDeviceVolume(level.fraction).result
        }
    }

    /// Fails with ``CommandLineError/Code/fixedVolume`` when the device reports a fixed
    /// volume, which it would ignore SET_VOLUME for.
    static func requireAdjustableVolume(_ session: CastSession, command: String) throws(CommandLineError) {
        guard session.isFixedVolume else { return }
        throw CommandLineError(
            .fixedVolume,
            "cast \(command): the volume of \(session.device.friendlyName ?? session.host) is fixed "
                + "(the TV or amplifier it is plugged into controls it); --stream changes the media's volume"
        )
    }
}

/// `cast mute` and `cast unmute`.
public struct MuteCommand: CastCommand {
    public static let spec = CommandSpec(
        path: ["mute"],
        summary: "Mute the device (or the stream with --stream).",
        options: [.flag("stream", help: "Mute the media stream instead of the device.")],
        examples: ["cast mute", "cast mute --stream"]
    )
    /// Whether the stream is meant.
    public var stream: Bool
    /// `true` for mute, `false` for unmute.
    public var muted = true

    public init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
        stream = arguments.has("stream")
    }
    public func run(in runtime: CommandRuntime) async throws {
        if stream {
            try await runtime.activeMedia().client.setStreamMuted(muted).result
        } else {
            let session = try await runtime.session(launching: false)
            try VolumeCommand.requireAdjustableVolume(session, command: muted ? "mute" : "unmute")
            try await session.setDeviceMuted(muted).result
        }
    }
}

/// `cast unmute`.
public struct UnmuteCommand: CastCommand {
    public static let spec = CommandSpec(
        path: ["unmute"],
        summary: "Unmute the device (or the stream with --stream).",
        options: [.flag("stream", help: "Unmute the media stream instead of the device.")],
        examples: ["cast unmute"]
    )
    private var mute: MuteCommand

    public init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
        var parsed = ParsedArguments()
        parsed.flags = arguments.flags
        mute = try MuteCommand(parsing: parsed)
        mute.muted = false
    }
    public func run(in runtime: CommandRuntime) async throws {
        try await mute.run(in: runtime)
    }
}
