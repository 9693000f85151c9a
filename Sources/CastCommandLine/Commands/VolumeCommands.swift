package import CastArguments
import CastSender

/// `cast volume LEVEL [--stream]`.
package struct VolumeCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["volume"],
        summary: "Set the device volume (or the stream's with --stream).",
        arguments: "LEVEL",
        discussion: "LEVEL is a fraction from 0 to 1 (0.4) or a percentage (40%).",
        options: [
            .flag("stream", help: "Set the media stream's volume instead of the device's."),
            .value("member", "NAME", help: "Set one member's volume of the speaker group chosen with -d."),
        ],
        examples: [
            "cast volume 0.4", "cast volume 40%", "cast volume --stream 0.8",
            "cast -d Downstairs volume 30% --member Kitchen",
        ]
    )
    /// The level.
    package var level: VolumeLevel
    /// Whether the stream volume is meant.
    package var stream: Bool
    /// The speaker-group member meant, if any.
    package var member: String?

    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
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
        member = arguments.value("member")
    }

    package func validate() throws(CommandLineError) {
        try Self.validateMember(member, stream: stream, command: Self.spec.name)
    }

    /// `--member` needs a name and does not go with `--stream`.
    static func validateMember(_ member: String?, stream: Bool, command: String) throws(CommandLineError) {
        guard let member else { return }
        guard !member.isEmpty else {
            throw CommandLineError(.invalidValue, "cast \(command): --member needs a name", commandName: command)
        }
        guard !stream else {
            throw CommandLineError(
                .invalidValue,
                "cast \(command): --member and --stream do not go together",
                commandName: command
            )
        }
    }

    package func run(in runtime: CommandRuntime) async throws {
        if let member {
            let found = try await GroupCommand.member(named: member, in: runtime, command: Self.spec.name)
            _ = try await MultizoneProbe.setVolume(
                of: found.member,
                level: level.fraction,
                muted: nil,
                host: found.host,
                port: found.port,
                timeout: runtime.context.options.requestTimeout
            )
        } else if stream {
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
package struct MuteCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["mute"],
        summary: "Mute the device (or the stream with --stream).",
        options: [
            .flag("stream", help: "Mute the media stream instead of the device."),
            .value("member", "NAME", help: "Mute one member of the speaker group chosen with -d."),
        ],
        examples: ["cast mute", "cast mute --stream", "cast -d Downstairs mute --member Kitchen"]
    )
    /// Whether the stream is meant.
    package var stream: Bool
    /// The speaker-group member meant, if any.
    package var member: String?
    /// `true` for mute, `false` for unmute.
    package var muted = true

    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
        stream = arguments.has("stream")
        member = arguments.value("member")
    }

    package func validate() throws(CommandLineError) {
        try VolumeCommand.validateMember(member, stream: stream, command: muted ? "mute" : "unmute")
    }

    package func run(in runtime: CommandRuntime) async throws {
        let command = muted ? "mute" : "unmute"
        if let member {
            let found = try await GroupCommand.member(named: member, in: runtime, command: command)
            _ = try await MultizoneProbe.setVolume(
                of: found.member,
                level: nil,
                muted: muted,
                host: found.host,
                port: found.port,
                timeout: runtime.context.options.requestTimeout
            )
        } else if stream {
            try await runtime.activeMedia().client.setStreamMuted(muted).result
        } else {
            let session = try await runtime.session(launching: false)
            try VolumeCommand.requireAdjustableVolume(session, command: muted ? "mute" : "unmute")
            try await session.setDeviceMuted(muted).result
        }
    }
}

/// `cast unmute`.
package struct UnmuteCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["unmute"],
        summary: "Unmute the device (or the stream with --stream).",
        options: [
            .flag("stream", help: "Unmute the media stream instead of the device."),
            .value("member", "NAME", help: "Unmute one member of the speaker group chosen with -d."),
        ],
        examples: ["cast unmute", "cast -d Downstairs unmute --member Kitchen"]
    )
    private var mute: MuteCommand

    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
        var parsed = ParsedArguments()
        parsed.flags = arguments.flags
        parsed.values = arguments.values
        mute = try MuteCommand(parsing: parsed)
        mute.muted = false
    }

    package func validate() throws(CommandLineError) {
        try mute.validate()
    }
    package func run(in runtime: CommandRuntime) async throws {
        try await mute.run(in: runtime)
    }
}
