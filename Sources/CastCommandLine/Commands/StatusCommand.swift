import CastCore
import CastSender

/// `cast status [--watch] [--json]`.
public struct StatusCommand: CastCommand {
    public static let spec = CommandSpec(
        path: ["status"],
        summary: "Show what the device is playing.",
        discussion:
            "With --watch, keeps showing progress until the media ends or Ctrl-C; with --json as well, prints one JSON object per update.",
        options: [
            .flag("watch", short: "w", help: "Keep showing progress until the media ends."),
            .flag("json", help: "Print JSON (see docs/cli.md)."),
        ],
        examples: ["cast status", "cast status --json", "cast status --watch"]
    )
    /// Keep watching.
    public var watch: Bool
    /// JSON output.
    public var json: Bool

    public init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
        watch = arguments.has("watch")
        json = arguments.has("json")
    }

    public func run(in runtime: CommandRuntime) async throws {
        let session: CastSession
        do {
            session = try await runtime.session(launching: false)
        } catch let error as CommandLineError where error.code == .nothingPlaying {
            let (device, host, port) = try await runtime.resolveDevice()
            show(StatusReport(idleDevice: device, host: host, port: port), runtime: runtime)
            return
        }
        let client = session.remoteMediaClient
        try await client.requestStatus().result
        show(StatusReport(session: session), runtime: runtime)
        guard watch, !Self.hasEnded(client.mediaStatus) else { return }
        let interrupt = InterruptSignal()
        let output = runtime.output
        let json = json
        let updates = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                let report = StatusReport(session: session)
                if json {
                    output.json(report.json)
                } else {
                    let state = report.media?.playerState?.rawValue ?? "IDLE"
                    let text = "\(state.padding(8)) \(report.progressLine(width: 30))"
                    if output.errorIsTerminal {
                        output.progress("\r\u{1B}[K" + text)
                    } else {
                        output.line(text)
                    }
                }
                if Self.hasEnded(client.mediaStatus) { break }
            }
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await updates.value }
            group.addTask { await interrupt.wait() }
            await group.next()
            updates.cancel()
            group.cancelAll()
        }
        if output.errorIsTerminal, !json { output.progress("\n") }
    }

    /// Whether there is nothing left to follow: no media session, or an idle player with no
    /// queue item loading next. Checked before the first update too, so watching media that
    /// already finished ends at once instead of waiting for a change that never comes.
    private static func hasEnded(_ status: MediaStatus?) -> Bool {
        guard let status, let state = status.playerState else { return true }
        return state == .idle && status.loadingItemId == nil
    }

    private func show(_ report: StatusReport, runtime: CommandRuntime) {
        if json {
            runtime.output.json(report.json)
        } else {
            for line in report.lines(output: runtime.output) { runtime.output.line(line) }
        }
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
