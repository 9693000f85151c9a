import CastNet
import CastSender
import CastSenderUI
import Foundation

/// The user's preferences, kept in `settings.json` in the app's configuration directory.
struct AppSettings: Codable, Hashable, Sendable {
    /// The receiver app launched on the device (takes effect at the next start).
    var receiverApplicationID = DiscoveryCriteria.defaultMediaReceiverApplicationID
    /// Seconds before the end of an item at which the next queue item is preloaded.
    var preloadTime: Double = 20
    /// Comma-separated interface names for discovery; empty means every multicast-capable
    /// interface (takes effect at the next start).
    var discoveryInterfaces = ""
    /// The SDK log level written to the log file: none, error, warning, info, debug, verbose.
    var logLevel = "warning"
    /// The image picker every place uses: `best-fit` or `first` (used at once).
    var imagePicker = ImagePickerChoice.bestFit.rawValue

    static let logLevels = ["none", "error", "warning", "info", "debug", "verbose"]

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = AppSettings()
        receiverApplicationID =
            try container.decodeIfPresent(String.self, forKey: .receiverApplicationID)
            ?? defaults.receiverApplicationID
        preloadTime = try container.decodeIfPresent(Double.self, forKey: .preloadTime) ?? defaults.preloadTime
        discoveryInterfaces =
            try container.decodeIfPresent(String.self, forKey: .discoveryInterfaces) ?? defaults.discoveryInterfaces
        logLevel = try container.decodeIfPresent(String.self, forKey: .logLevel) ?? defaults.logLevel
        imagePicker = try container.decodeIfPresent(String.self, forKey: .imagePicker) ?? defaults.imagePicker
    }

    /// The image picker chosen.
    var imagePickerChoice: ImagePickerChoice { ImagePickerChoice(rawValue: imagePicker.lowercased()) ?? .bestFit }

    /// The log level as the SDK's type.
    var castLogLevel: CastLogLevel {
        switch logLevel.lowercased() {
        case "none": .none
        case "error": .error
        case "info": .info
        case "debug": .debug
        case "verbose": .verbose
        default: .warning
        }
    }

    /// The interface names, or `nil` for the default.
    var interfaceNames: [String]? { Self.interfaceNames(fromList: discoveryInterfaces) }

    /// The names of a comma-separated interface list (the setting, or `CAST_DISCOVERY_INTERFACES`),
    /// or `nil` when it names none.
    static func interfaceNames(fromList list: String) -> [String]? {
        let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return names.isEmpty ? nil : names
    }

    /// Checks an edited value; returns why it is refused, or `nil`.
    static func validate(_ field: Field, _ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch field {
        case .receiverApplicationID:
            let valid = !trimmed.isEmpty && trimmed.count <= 64 && trimmed.allSatisfy { $0.isLetter || $0.isNumber }
            return valid ? nil : "an app ID is 1 to 64 letters and digits"
        case .preloadTime:
            guard let value = Double(trimmed), value >= 0, value <= 600 else { return "a number of seconds, 0 to 600" }
            return nil
        case .discoveryInterfaces:
            let valid = trimmed.allSatisfy { $0.isLetter || $0.isNumber || ",.-_: ".contains($0) }
            return valid ? nil : "interface names separated by commas"
        case .logLevel:
            return logLevels.contains(trimmed.lowercased()) ? nil : "one of \(logLevels.joined(separator: ", "))"
        case .imagePicker:
            let names = ImagePickerChoice.allCases.map(\.rawValue)
            return names.contains(trimmed.lowercased()) ? nil : "one of \(names.joined(separator: ", "))"
        }
    }

    /// The editable fields, in the order the settings screen shows them.
    enum Field: Int, CaseIterable, Sendable {
        case receiverApplicationID
        case preloadTime
        case discoveryInterfaces
        case logLevel
        case imagePicker

        var title: String {
            switch self {
            case .receiverApplicationID: "Receiver app ID"
            case .preloadTime: "Preload time (s)"
            case .discoveryInterfaces: "Discovery interfaces"
            case .logLevel: "Log level"
            case .imagePicker: "Image picker"
            }
        }

        var note: String {
            switch self {
            case .receiverApplicationID: "used from the next start"
            case .preloadTime: "used by the next queue item"
            case .discoveryInterfaces: "empty: all; used from the next start"
            case .logLevel: "none, error, warning, info, debug, verbose"
            case .imagePicker: "best-fit or first; used at once"
            }
        }
    }

    /// The value of `field` as text.
    func text(_ field: Field) -> String {
        switch field {
        case .receiverApplicationID: receiverApplicationID
        case .preloadTime: preloadTime.formatted(.number.precision(.fractionLength(0...1)))
        case .discoveryInterfaces: discoveryInterfaces
        case .logLevel: logLevel
        case .imagePicker: imagePickerChoice.rawValue
        }
    }

    /// Sets `field` from valid text.
    mutating func set(_ field: Field, _ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch field {
        case .receiverApplicationID: receiverApplicationID = trimmed.uppercased()
        case .preloadTime: preloadTime = Double(trimmed) ?? preloadTime
        case .discoveryInterfaces: discoveryInterfaces = trimmed
        case .logLevel: logLevel = trimmed.lowercased()
        case .imagePicker: imagePicker = trimmed.lowercased()
        }
    }
}

/// The image pickers the settings offer.
enum ImagePickerChoice: String, CaseIterable, Sendable {
    /// ``BestFitImagePicker``: the smallest image at least as large as the place asks.
    case bestFit = "best-fit"
    /// ``FirstImagePicker``, the SDK's default: the first image.
    case first

    var picker: any ImagePicker {
        switch self {
        case .bestFit: BestFitImagePicker()
        case .first: FirstImagePicker()
        }
    }
}

/// Reads and writes ``AppSettings`` in a directory.
struct SettingsStore: Sendable {
    let url: URL

    init(directory: URL) {
        url = directory.appendingPathComponent("settings.json")
    }

    /// The saved settings; the defaults when there are none, and an explanation when the file
    /// could not be used.
    func load() -> (settings: AppSettings, problem: String?) {
        let bytes: [UInt8]
        do {
            bytes = try LocalFile.read(path: url.path, limit: 64 << 10)
        } catch {
            switch error.kind {
            case .notFound: return (AppSettings(), nil)
            case .tooLarge: return (AppSettings(), "settings file is too large; using defaults")
            case .notRegularFile, .unreadable: return (AppSettings(), "settings file \(error); using defaults")
            }
        }
        do {
            return (try JSONDecoder().decode(AppSettings.self, from: Data(bytes)), nil)
        } catch {
            return (AppSettings(), "settings file \(url.path) is damaged; using defaults")
        }
    }

    /// Saves the settings atomically.
    func save(_ settings: AppSettings) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(settings).write(to: url, options: .atomic)
    }
}

extension AppSettings {
    /// The SDK log filter: the chosen level for everything, and, as the codelab turns on
    /// verbose logging for a list of components, at least debug for the components of the
    /// codelab flow (discovery, sessions, device auth, media, queue, channels, widgets) so
    /// that the log tells the flow. Raw message traffic (the connection) stays at the chosen
    /// level; "none" turns everything off.
    var logFilter: CastLogFilter {
        let level = castLogLevel
        var filter = CastLogFilter(minimumLevel: level)
        guard level > .none else { return filter }
        let flow: [CastLogComponent] = [.context, .discovery, .session, .deviceAuth, .media, .queue, .channel, .ui]
        filter.setMinimumLevel(min(level, .debug), for: flow)
        return filter
    }
}
