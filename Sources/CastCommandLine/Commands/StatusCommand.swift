package import CastArguments
import CastCore
import CastSender

/// `cast status [--watch] [--json]`.
package struct StatusCommand: CastCommand {
    package static let spec = CommandSpec(
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
    package var watch: Bool
    /// JSON output.
    package var json: Bool

    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
        watch = arguments.has("watch")
        json = arguments.has("json")
    }

    package func run(in runtime: CommandRuntime) async throws {
        let session: CastSession
        var following: (device: CastDevice, host: String, port: Int, status: ReceiverStatus, group: FollowedGroup)?
        do {
            session = try await runtime.session(launching: false)
        } catch let error as CommandLineError where error.code == .nothingPlaying {
            let (device, host, port) = try await runtime.resolveDevice()
            guard let followed = await Self.followedGroup(device: device, host: host, port: port, runtime: runtime)
            else {
                show(StatusReport(idleDevice: device, host: host, port: port), runtime: runtime)
                return
            }
            following = (device, host, port, followed.status, followed.group)
            session = try await Self.groupSession(followed.group, runtime: runtime)
        }
        let client = session.remoteMediaClient
        try await client.requestStatus().result
        let member = following
        let report: @Sendable () -> StatusReport = {
            guard let member else { return StatusReport(session: session) }
            return StatusReport(
                member: member.device,
                host: member.host,
                port: member.port,
                status: member.status,
                group: member.group,
                session: session
            )
        }
        show(report(), runtime: runtime)
        guard watch, !Self.hasEnded(client.mediaStatus) else { return }
        let interrupt = InterruptSignal()
        let output = runtime.output
        let json = json
        let updates = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                let report = report()
                if json {
                    output.json(report.json)
                } else {
                    let state = report.media?.playerState?.rawValue ?? "IDLE"
                    let text = "\(state.padding(8)) \(report.progressLine(width: 30))"
                    if output.errorIsTerminal {
                        output.progressLine(text)
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
        if !json { output.endProgress() }
    }

    /// The group a member at `host:port` follows, when it runs the follower app and one of
    /// its groups runs our receiver app in that session.
    private static func followedGroup(
        device: CastDevice,
        host: String,
        port: Int,
        runtime: CommandRuntime
    ) async -> (status: ReceiverStatus, group: FollowedGroup)? {
        let timeout = runtime.context.options.requestTimeout
        let sessions = runtime.context.sessionManager
        guard let status = try? await sessions.receiverStatus(of: device, host: host, port: port, timeout: timeout),
            let sessionID = GroupFollowing.follower(in: status)?.sessionID,
            let group = await GroupFollowing.group(
                following: sessionID,
                memberHost: host,
                sessionManager: sessions,
                timeout: timeout
            ),
            group.applicationIDs.contains(runtime.context.options.receiverApplicationID)
        else { return nil }
        return (status, group)
    }

    /// A session joining the group's running receiver app.
    private static func groupSession(_ group: FollowedGroup, runtime: CommandRuntime) async throws -> CastSession {
        do {
            let device = try await runtime.context.discoveryManager.addDevice(host: group.host, port: group.port)
            return try await runtime.context.sessionManager.startSession(
                with: device,
                host: group.host,
                port: group.port
            )
        } catch {
            throw CommandLineError(.requestFailed, "cannot join the group \(group.name) this device follows: \(error)")
        }
    }

    /// Whether there is nothing left to follow: no media session, or an idle player with no
    /// queue item loading next. Checked before the first update too, so watching media that
    /// already finished ends at once instead of waiting for a change that never comes.
    private static func hasEnded(_ status: MediaStatus?) -> Bool {
        guard let status, let state = status.playerState else { return true }
        return state == .idle && status.loadingItemID == nil
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
