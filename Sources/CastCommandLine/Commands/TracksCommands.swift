package import CastArguments
import CastCore
import CastSender

/// `cast tracks`: lists the media's tracks.
package struct TracksCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["tracks"],
        summary: "List the media's tracks (subtitles, audio); 'tracks on ID' / 'tracks off' choose.",
        options: [.flag("json", help: "Print JSON (see docs/cli.md).")],
        examples: ["cast tracks", "cast tracks on 1", "cast tracks off"]
    )
    /// JSON output.
    package var json: Bool

    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
        json = arguments.has("json")
    }

    package func run(in runtime: CommandRuntime) async throws {
        let (_, status) = try await runtime.activeMedia()
        let tracks = status.media?.tracks ?? []
        let active = Set(status.activeTrackIDs ?? [])
        if json {
            runtime.output.json(
                .array(
                    tracks.map { track in
                        [
                            "trackId": .integer(track.trackID),
                            "type": .string(track.type.rawValue),
                            "name": track.name.jsonValue,
                            "language": track.language.jsonValue,
                            "active": .bool(active.contains(track.trackID)),
                        ]
                    }
                )
            )
            return
        }
        if tracks.isEmpty { runtime.output.line("no tracks") }
        for track in tracks {
            let mark = active.contains(track.trackID) ? "*" : " "
            let name = [track.name, track.language].compactMap { $0 }.joined(separator: ", ")
            runtime.output.line("\(mark) \(track.trackID)\t\(track.type.rawValue)\t\(name)")
        }
    }
}

/// `cast tracks on ID`.
package struct TracksOnCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["tracks", "on"],
        summary: "Turn a track on (by ID from 'cast tracks').",
        arguments: "ID",
        examples: ["cast tracks on 1"]
    )
    /// The track.
    package var trackID: Int

    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        let text = try arguments.positionals(1...1, for: Self.spec, names: "ID")[0]
        guard let id = Int(text), id >= 0 else {
            throw CommandLineError(
                .invalidValue,
                "cast tracks on: '\(text)' is not a track ID",
                commandName: Self.spec.name
            )
        }
        trackID = id
    }

    package func run(in runtime: CommandRuntime) async throws {
        let (client, status) = try await runtime.activeMedia()
        guard let track = status.media?.tracks?.first(where: { $0.trackID == trackID }) else {
            throw CommandLineError(.requestFailed, "the media has no track \(trackID)")
        }
        // One track per type: keep active tracks of other types.
        let others = (status.activeTrackIDs ?? []).filter { id in
            status.media?.tracks?.first { $0.trackID == id }?.type != track.type
        }
        try await client.setActiveTrackIDs(others + [trackID]).result
    }
}

/// `cast tracks off`.
package struct TracksOffCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["tracks", "off"],
        summary: "Turn text tracks (subtitles) off.",
        examples: ["cast tracks off"]
    )

    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
    }

    package func run(in runtime: CommandRuntime) async throws {
        let (client, status) = try await runtime.activeMedia()
        let keep = (status.activeTrackIDs ?? []).filter { id in
            status.media?.tracks?.first { $0.trackID == id }?.type != .text
        }
        try await client.setActiveTrackIDs(keep).result
    }
}
