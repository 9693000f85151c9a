package import CastArguments
import CastCore
import CastSender
import TerminalUI

/// `cast devices [--timeout S] [--json]`.
package struct DevicesCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["devices"],
        summary: "List the Cast devices found on the network.",
        discussion:
            "Discovery uses mDNS on every multicast interface, or on those given by --interface or CAST_DISCOVERY_INTERFACES.",
        options: [
            .value("timeout", "S", help: "How long to listen, in seconds (default 3)."),
            .flag("json", help: "Print a JSON array (see docs/cli.md)."),
        ],
        examples: ["cast devices", "cast devices --timeout 10 --json", "cast devices --interface eth0"]
    )
    /// How long to listen.
    package var timeout: Double
    /// JSON output.
    package var json: Bool

    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
        timeout = try arguments.double("timeout", for: Self.spec) ?? 3
        json = arguments.has("json")
    }

    package func validate() throws(CommandLineError) {
        guard timeout > 0, timeout <= 600 else {
            throw CommandLineError(
                .invalidValue,
                "cast devices: --timeout must be between 0 and 600 seconds",
                commandName: Self.spec.name
            )
        }
    }

    package func run(in runtime: CommandRuntime) async throws {
        var devices = try await runtime.discover(timeout: .milliseconds(Int(timeout * 1000)))
        if case .address(let host, let port) = runtime.target,
            let device = try? await runtime.context.discoveryManager.addDevice(host: host, port: port),
            !devices.contains(where: { $0.id == device.id })
        {
            devices.append(device)
        }
        if json {
            runtime.output.json(.array(devices.map(Self.json)))
            return
        }
        if devices.isEmpty { runtime.output.error("no devices found") }
        for device in devices {
            let address =
                device.addresses.first.map {
                    DeviceTarget.address(host: $0.description, port: Int(device.port)).description
                } ?? "?"
            let model = device.modelName.map { " (\(TerminalText.sanitized($0)))" } ?? ""
            let name = TerminalText.sanitized(device.friendlyName ?? device.idText)
            runtime.output.line("\(name)\(model)\(device.isGroup ? " [group]" : "")\t\(address)")
        }
    }

    static func json(_ device: CastDevice) -> JSONValue {
        [
            "id": .string(device.idText),
            "name": device.friendlyName.jsonValue,
            "model": device.modelName.jsonValue,
            "host": device.addresses.first?.description.jsonValue ?? .null,
            "addresses": device.addresses.map(\.description).jsonValue,
            "port": .integer(Int(device.port)),
            "status": device.statusText.jsonValue,
            "group": .bool(device.isGroup),
        ]
    }
}
