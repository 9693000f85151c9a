package import CastArguments
import CastCore
import CastNet
import CastNetCore
import TerminalUI

/// `cast info`.
package struct InfoCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["info"],
        summary: "Show the device's setup information (/setup/eureka_info).",
        options: [
            .value("setup-port", "P", help: "The device's setup HTTP port (default 8008)."),
            .flag("json", help: "Print the device's JSON as it is."),
        ],
        examples: ["cast info", "cast -d 192.168.1.30 info --json"]
    )
    /// The setup port.
    package var setupPort: Int
    /// JSON output.
    package var json: Bool

    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
        json = arguments.has("json")
        if let text = arguments.value("setup-port") {
            guard let port = Int(text), (1...65_535).contains(port) else {
                throw CommandLineError(
                    .invalidValue,
                    "cast info: --setup-port expects a port, got '\(text)'",
                    commandName: Self.spec.name
                )
            }
            setupPort = port
        } else {
            setupPort = 8008
        }
    }

    package func run(in runtime: CommandRuntime) async throws {
        let (_, host, _) = try await runtime.resolveDevice()
        let authority = host.contains(":") ? "[\(host)]:\(setupPort)" : "\(host):\(setupPort)"
        let url =
            "http://\(authority)/setup/eureka_info?params=version,audio,name,build_info,detail,device_info,net,wifi,setup,settings,opt_in,opencast,multizone,proxy,night_mode_params,user_eq,room_equalizer&options=detail"
        let response: HTTPClientResponse
        do {
            response = try await HTTPClient().get(url)
        } catch {
            throw CommandLineError(.requestFailed, "GET \(url): \(error)")
        }
        guard response.status.code == 200,
            let document = try? JSONValue(parsing: response.body), let object = document.objectValue
        else {
            throw CommandLineError(.requestFailed, "GET \(url): HTTP \(response.status.code), not a JSON object")
        }
        if json {
            runtime.output.json(document)
            return
        }
        let info = object["device_info"]?.objectValue ?? [:]
        let build = object["build_info"]?.objectValue ?? [:]
        let rows: [(String, JSONValue?)] = [
            ("Name", object["name"]),
            ("Model", info["model_name"] ?? object["model_name"]),
            ("Manufacturer", info["manufacturer"]),
            ("UUID", info["ssdp_udn"] ?? object["ssdp_udn"]),
            ("Firmware", build["cast_build_revision"] ?? object["cast_build_revision"]),
            ("MAC", info["mac_address"] ?? object["mac_address"]),
            ("IP", info["ip_address"] ?? object["ip_address"]),
            ("Locale", object["locale"]),
            ("Time zone", object["timezone"]),
        ]
        for (label, value) in rows {
            guard let value, !value.isNull else { continue }
            let text = value.stringValue ?? value.description
            runtime.output.line("\((label + ":").padding(14)) \(TerminalText.sanitized(text))")
        }
    }
}
