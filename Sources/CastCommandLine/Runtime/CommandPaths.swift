import CastNet
import CastSender

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// Where `cast` keeps its configuration and its saved session.
package struct CommandPaths: Sendable, Hashable {
    /// `$XDG_CONFIG_HOME/cast/config.json`, else `~/.config/cast/config.json`.
    package var configFile: URL
    /// `$CAST_STATE_DIR/session.json`, else `$XDG_STATE_HOME/cast/session.json`, else
    /// `~/.local/state/cast/session.json`.
    package var sessionFile: URL

    /// The paths for an environment.
    package init(environment: [String: String]) {
        let home = URL(
            fileURLWithPath: environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path,
            isDirectory: true
        )
        func base(_ variable: String, _ fallback: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") {
                return URL(fileURLWithPath: value, isDirectory: true)
            }
            return home.appendingPathComponent(fallback, isDirectory: true)
        }
        configFile = base("XDG_CONFIG_HOME", ".config").appendingPathComponent("cast/config.json")
        if let state = environment["CAST_STATE_DIR"], !state.isEmpty {
            sessionFile = URL(fileURLWithPath: state, isDirectory: true).appendingPathComponent("session.json")
        } else {
            sessionFile = base("XDG_STATE_HOME", ".local/state").appendingPathComponent("cast/session.json")
        }
    }
}

/// The settings read from `config.json`: `{"device": "Living Room", "interfaces": ["en0"]}`.
package struct CommandConfiguration: Sendable, Hashable {
    /// The default device (a name or `HOST[:PORT]`).
    package var device: String?
    /// Discovery interfaces.
    package var interfaces: [String]

    /// An empty configuration.
    package init(device: String? = nil, interfaces: [String] = []) {
        self.device = device
        self.interfaces = interfaces
    }

    /// Reads the file; a missing file is an empty configuration.
    /// - Throws: ``CommandLineError`` when the file exists but is not a JSON object of the
    ///   expected shape.
    package init(contentsOf url: URL) throws(CommandLineError) {
        let data: [UInt8]
        do {
            data = try LocalFile.read(path: url.path, limit: PrivateFile.maximumSize)
        } catch  where error.kind == .notFound {
            self.init()
            return
        } catch {
            throw CommandLineError(.invalidValue, error.description)
        }
        guard let object = (try? JSONValue(parsing: data))?.objectValue else {
            throw CommandLineError(.invalidValue, "\(url.path): not a JSON object")
        }
        let device = object["device"]
        guard device == nil || device?.stringValue != nil else {
            throw CommandLineError(.invalidValue, "\(url.path): \"device\" must be a string")
        }
        // A value that is not an array counts as an array holding a non-string, so it fails below.
        let interfaces = object["interfaces"].map { $0.arrayValue ?? [.null] } ?? []
        let names = interfaces.compactMap(\.stringValue)
        guard names.count == interfaces.count else {
            throw CommandLineError(.invalidValue, "\(url.path): \"interfaces\" must be an array of strings")
        }
        self.init(device: device?.stringValue, interfaces: names)
    }
}

/// The part of the SDK's saved session the command line reads to match it to a device.
struct SavedSessionSummary: Sendable, Hashable {
    var host: String
    var port: Int
    var deviceName: String?

    init?(contentsOf url: URL) {
        guard let data = try? PrivateFile.read(url),
            let object = (try? JSONValue(parsing: [UInt8](data)))?.objectValue,
            let host = object["host"]?.stringValue, let port = object["port"]?.intValue
        else { return nil }
        self.host = host
        self.port = port
        self.deviceName = object["deviceName"]?.stringValue
    }

    func matches(_ target: DeviceTarget?) -> Bool {
        switch target {
        case nil: true
        case .address(let host, let port): host == self.host && port == self.port
        case .name(let name): deviceName?.lowercased().hasPrefix(name.lowercased()) ?? false
        }
    }
}
