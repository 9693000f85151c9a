package import CastArguments
import CastCore
import CastNet
import CastNetCore
import CastSender
import TerminalUI

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `cast play URL|FILE [--title T] [--subtitle URL|FILE] [--content-type M] [--start S] [--queue URL…]`.
package struct PlayCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["play"],
        summary: "Play a URL or a local file on the device.",
        arguments: "URL|FILE",
        discussion: """
            A local file is served over HTTP (with byte ranges) from this machine while it plays; \
            the command stays in the foreground showing progress, and Ctrl-C stops playback and serving. \
            .srt subtitles are converted to WebVTT. On a device already running the media receiver, \
            the media is replaced without relaunching the app.
            """,
        options: [
            .value("title", "T", short: "t", help: "The title shown on the device."),
            .value("subtitle", "URL|FILE", short: "s", help: "A WebVTT or SRT subtitle track (turned on)."),
            .value("content-type", "M", help: "The MIME type (guessed from the name otherwise)."),
            .value("start", "S", help: "Start at this position (seconds, mm:ss or hh:mm:ss)."),
            .value("queue", "URL", short: "q", help: "Queue another item after this one (repeatable)."),
            .flag("detach", help: "With a local file: return once loaded and stop serving."),
        ],
        examples: [
            "cast play https://example.com/movie.mp4 --title 'A Movie'",
            "cast play ./holiday.mp4 --subtitle ./holiday.srt",
            "cast play https://example.com/a.mp3 --queue https://example.com/b.mp3",
            "cast play URL --start 1:30",
        ]
    )

    /// What to play: a URL or a file path.
    package var source: String
    /// The title.
    package var title: String?
    /// The subtitle URL or file.
    package var subtitle: String?
    /// The MIME type.
    package var contentType: String?
    /// The start position in seconds.
    package var start: Double?
    /// More items.
    package var queue: [String]
    /// Return once playing instead of following playback (local files stop being served).
    package var detach: Bool

    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        source = try arguments.positionals(1...1, for: Self.spec, names: "URL or FILE")[0]
        title = arguments.value("title")
        subtitle = arguments.value("subtitle")
        contentType = arguments.value("content-type")
        queue = arguments.values["queue"] ?? []
        detach = arguments.has("detach")
        if let text = arguments.value("start") {
            guard let target = SeekTarget(text), !target.isRelative else {
                throw CommandLineError(
                    .invalidValue,
                    "cast play: --start expects a position (seconds, mm:ss or hh:mm:ss), got '\(text)'",
                    commandName: Self.spec.name
                )
            }
            start = target.seconds
        }
    }

    package func validate() throws(CommandLineError) {
        for entry in [source] + queue + (subtitle.map { [$0] } ?? []) where !MediaURL.isRemote(entry) {
            if entry.contains("://") {
                throw CommandLineError(
                    .invalidValue,
                    "cast play: '\(entry)' is neither an http(s) URL nor a file",
                    commandName: Self.spec.name
                )
            }
        }
        if let contentType, !contentType.contains("/") {
            throw CommandLineError(
                .invalidValue,
                "cast play: --content-type expects a MIME type such as video/mp4, got '\(contentType)'",
                commandName: Self.spec.name
            )
        }
    }

    package func run(in runtime: CommandRuntime) async throws {
        for entry in [source] + queue + (subtitle.map { [$0] } ?? []) where !MediaURL.isRemote(entry) {
            guard FileManager.default.isReadableFile(atPath: entry) else {
                throw CommandLineError(.fileNotFound, "cannot read file '\(entry)'")
            }
        }
        // Subtitles are read (a local file up to its cap, never waiting on a FIFO) before any
        // device is contacted, so a bad file fails the command at once.
        var subtitleBytes: [UInt8]?
        if let subtitle, !MediaURL.isRemote(subtitle) || subtitle.lowercased().hasSuffix(".srt") {
            subtitleBytes = try await Self.subtitleBytes(subtitle)
        }
        let session = try await runtime.session(launching: true)
        let client = session.remoteMediaClient

        // Serve local files and converted subtitles.
        var entries: [LocalMediaServer.Entry] = []
        var sources: [String] = []  // the entry each served item stands for
        for (index, entry) in ([source] + queue).enumerated() where !MediaURL.isRemote(entry) {
            let name = URL(fileURLWithPath: entry).lastPathComponent
            let type = (index == 0 ? contentType : nil) ?? MediaURL.contentType(for: name) ?? "application/octet-stream"
            entries.append(.init(name: Self.escape(name), content: .file(path: entry), contentType: type))
            sources.append(entry)
        }
        var subtitleURL = subtitle
        if let subtitle, let bytes = subtitleBytes {
            entries.append(
                .init(name: "subtitles.vtt", content: .bytes(bytes), contentType: "text/vtt", crossOrigin: true)
            )
            sources.append(subtitle)
        }
        var server: LocalMediaServer?
        var served: [String: String] = [:]  // source → path
        if !entries.isEmpty {
            guard let local = LocalMediaServer.localAddress(toward: session.host) else {
                throw CommandLineError(.requestFailed, "cannot find the local address that reaches \(session.host)")
            }
            do {
                let started = try LocalMediaServer(address: local, device: session.host, entries: entries)
                for (source, path) in zip(sources, started.paths) where served[source] == nil { served[source] = path }
                server = started
            } catch let error as HTTPServedFile.OpenError {
                throw CommandLineError(.fileNotFound, "\(error)")
            } catch {
                throw CommandLineError(.requestFailed, "cannot serve local files on \(local): \(error)")
            }
        }
        defer { server?.stop() }
        func url(_ entry: String) -> String {
            guard let path = served[entry], let server else { return entry }
            return server.baseURL + path
        }
        if let subtitle { subtitleURL = url(subtitle) }

        var media = MediaURL.information(
            url(source),
            title: title ?? Self.defaultTitle(source),
            contentType: contentType
        )
        if !MediaURL.isRemote(source) {
            media.contentType = contentType ?? MediaURL.contentType(for: source) ?? "video/mp4"
        }
        var activeTracks: [Int]?
        if let subtitleURL {
            media.tracks = [
                MediaTrack(
                    trackID: 1,
                    type: .text,
                    trackContentID: subtitleURL,
                    trackContentType: "text/vtt",
                    name: "Subtitles",
                    subtype: .subtitles
                )
            ]
            activeTracks = [1]
        }
        if queue.isEmpty {
            let load = LoadRequestData(media: media, autoplay: true, currentTime: start, activeTrackIDs: activeTracks)
            try await client.load(load).result
        } else {
            var first = QueueItem(media: media, autoplay: true, activeTrackIDs: activeTracks)
            first.startTime = start
            let rest = queue.map { MediaURL.queueItem(url($0), title: Self.defaultTitle($0), contentType: nil) }
            try await client.queueLoad([first] + rest, options: MediaQueueLoadOptions(startIndex: 0)).result
        }
        let name = session.device.friendlyName ?? session.host
        let title = TerminalText.sanitized(media.metadata?.title ?? source)
        runtime.output.line("Playing \(title) on \(TerminalText.sanitized(name))")
        guard let server else { return }
        runtime.output.error("Serving \(server.baseURL); Ctrl-C stops.")
        if detach { return }
        try await followPlayback(client: client, runtime: runtime)
    }

    /// Shows progress until the media ends, or Ctrl-C (which stops playback).
    private func followPlayback(client: RemoteMediaClient, runtime: CommandRuntime) async throws {
        let interrupt = InterruptSignal()
        let output = runtime.output
        let watcher = Task {
            var started = false
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(500))
                let status = client.mediaStatus
                let state = status?.playerState
                if state == .playing || state == .paused || state == .buffering { started = true }
                if started, state == nil || state == .idle { return }
                let position = client.approximateStreamPosition
                let duration = status?.media?.duration
                let fraction = duration.map { $0 > 0 ? min(1, position / $0) : 0 } ?? 0
                let text =
                    "\((state?.rawValue ?? "LOADING").padding(9)) \(TerminalProgress.bar(fraction)) \(TerminalProgress.time(position, duration))"
                output.progressLine(text)
            }
        }
        let interrupted = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await watcher.value
                return false
            }
            group.addTask {
                await interrupt.wait()
                return !Task.isCancelled
            }
            let first = await group.next() ?? false
            watcher.cancel()
            group.cancelAll()
            return first
        }
        output.endProgress()
        if interrupted {
            _ = await withTaskGroup(of: Void.self) { group in
                group.addTask { _ = await client.stop().waitForOutcome() }
                group.addTask { try? await Task.sleep(for: .seconds(2)) }
                await group.next()
                group.cancelAll()
            }
        }
    }

    /// The largest subtitle file read, local or remote (a feature film's subtitles are
    /// about 100 KB).
    static let maximumSubtitleSize = 8 << 20

    /// - Parameter timeout: the limit of a download, connecting to the last byte.
    static func subtitleBytes(_ subtitle: String, timeout: Duration = .seconds(10)) async throws -> [UInt8] {
        let raw: [UInt8]
        if MediaURL.isRemote(subtitle) {
            do {
                var client = HTTPClient()
                client.maximumBodySize = maximumSubtitleSize
                client.timeout = timeout
                let response = try await client.get(subtitle)
                guard response.status.code == 200 else {
                    throw CommandLineError(.requestFailed, "fetching \(subtitle): HTTP \(response.status.code)")
                }
                raw = response.body
            } catch let error as CommandLineError {
                throw error
            } catch {
                throw CommandLineError(.requestFailed, "fetching \(subtitle): \(error)")
            }
        } else {
            do {
                raw = try LocalFile.read(path: subtitle, limit: maximumSubtitleSize)
            } catch {
                throw CommandLineError(.fileNotFound, "--subtitle \(error)")
            }
        }
        if subtitle.lowercased().hasSuffix(".srt") {
            return Array(SubRipConverter.webVTT(fromSubRip: raw).utf8)
        }
        return raw
    }

    static func defaultTitle(_ source: String) -> String {
        guard MediaURL.isRemote(source) else { return URL(fileURLWithPath: source).lastPathComponent }
        return URL(string: source).flatMap { PercentEncoding.decoding($0.lastPathComponent) } ?? source
    }

    static func escape(_ name: String) -> String {
        PercentEncoding.encodingPath(name)
    }
}
