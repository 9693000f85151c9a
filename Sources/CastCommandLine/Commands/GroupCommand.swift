package import CastArguments
import CastCore
import CastSender
import TerminalUI

/// `cast group [--json]`: the members of a speaker group and their volumes.
package struct GroupCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["group"],
        summary: "List the members of a speaker group with their volumes.",
        discussion:
            "Asks the device (-d \"Group Name\") for its MULTIZONE_STATUS without starting a session. A speaker in "
            + "no group lists itself.",
        options: [.flag("json", help: "Print a JSON object (see docs/cli.md).")],
        examples: ["cast -d Downstairs group", "cast -d Downstairs group --json"]
    )
    /// JSON output.
    package var json: Bool

    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
        json = arguments.has("json")
    }

    package func run(in runtime: CommandRuntime) async throws {
        let (device, host, port) = try await runtime.resolveDevice()
        let status = try await MultizoneProbe.status(
            host: host,
            port: port,
            timeout: runtime.context.options.requestTimeout
        )
        if json {
            runtime.output.json([
                "group": [
                    "name": device.friendlyName.jsonValue,
                    "id": .string(device.idText),
                    "isGroup": .bool(device.isGroup),
                    "host": .string(host),
                    "port": .integer(port),
                ],
                "isMultichannel": status.isMultichannel.jsonValue,
                "members": .array(status.devices.map(Self.json)),
            ])
            return
        }
        for member in status.devices {
            runtime.output.line(Self.line(member))
        }
    }

    /// `Kitchen<TAB>40%`, with ` muted` when it is.
    static func line(_ member: MultizoneDevice) -> String {
        let name = TerminalText.sanitized(member.name ?? member.deviceID)
        let level = member.volumeLevel.map { "\(Int(($0 * 100).rounded()))%" } ?? "?"
        return "\(name)\t\(level)\(member.isMuted ? " muted" : "")"
    }

    static func json(_ member: MultizoneDevice) -> JSONValue {
        [
            "deviceId": .string(member.deviceID),
            "name": member.name.jsonValue,
            "capabilities": member.capabilities.jsonValue,
            "level": member.volumeLevel.jsonValue,
            "muted": member.isMuted.jsonValue,
        ]
    }

    /// The member named `name` (exactly, case-insensitively, else by prefix) of the chosen
    /// group, with where the group is reached.
    static func member(
        named name: String,
        in runtime: CommandRuntime,
        command: String
    ) async throws -> (member: MultizoneDevice, host: String, port: Int) {
        let (device, host, port) = try await runtime.resolveDevice()
        let status = try await MultizoneProbe.status(
            host: host,
            port: port,
            timeout: runtime.context.options.requestTimeout
        )
        let wanted = name.lowercased()
        let names = status.devices.map { ($0, ($0.name ?? "").lowercased()) }
        guard
            let member = names.first(where: { $0.1 == wanted })?.0 ?? names.first(where: { $0.1.hasPrefix(wanted) })?.0
        else {
            let known = status.devices.compactMap(\.name).joined(separator: ", ")
            throw CommandLineError(
                .memberNotFound,
                "cast \(command): \(device.friendlyName ?? host) has no member named '\(name)' (members: \(known))"
            )
        }
        return (member, host, port)
    }
}
