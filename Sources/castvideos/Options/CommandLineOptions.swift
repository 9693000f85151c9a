import CastArguments
import CastSender
import Foundation
import TerminalUI

/// What the command line asked for.
struct CommandLineOptions: Hashable, Sendable {
    var catalog = CatalogSource.builtIn
    var themePath: String?
    var virtualDevice = true
    var virtualDeviceLogPath: String?
    var virtualDeviceFaults: [VirtualDeviceFault] = []
    var configDirectory: String?
    var logPath: String?
    /// PEM files of device roots trusted besides Google's (`--trust-root`, repeatable).
    var trustRootPaths: [String] = []
    /// How pictures are drawn (`--pictures`).
    var pictures = PictureOption.auto
    /// Make the built-in catalog's media into the cache and exit (`--make-media`).
    var makeMedia = false
    var showHelp = false

    /// The options, in the order help shows them.
    static let options: [OptionSpec] = [
        .value(
            "catalog",
            "URL|FILE",
            help: "Load the catalog from a CastVideos JSON file or URL\n(default: the catalog built into the app)."
        ),
        .value("theme", "FILE", help: "Apply a JSON theme to the Cast widgets."),
        .flag("no-virtual-device", help: "Do not start the built-in virtual device."),
        .value("virtual-device-log", "FILE", help: "Append the virtual device's frame log (JSON lines)."),
        .value(
            "virtual-device-fault",
            "F",
            help:
                "Make the virtual device misbehave, to see how the app copes:\nrefuse-launch, fail-next-load (repeatable)."
        ),
        .value(
            "config-dir",
            "DIR",
            help:
                "Where settings and one-time flags are kept (default:\n$CASTVIDEOS_CONFIG_DIR, else $XDG_CONFIG_HOME/castvideos,\nelse ~/.config/castvideos)."
        ),
        .value(
            "log",
            "FILE",
            help: "Where SDK log lines go (default: castvideos.log in the\nconfiguration directory)."
        ),
        .value(
            "trust-root",
            "FILE",
            help: "Also trust the Cast device roots in this PEM file, such as\n"
                + "the root.pem cast-emulator names at start (repeatable;\n"
                + "default: $CAST_TRUST_ROOTS). Devices must authenticate with\n"
                + "Google's roots or one of these; the built-in virtual\ndevice's root is always trusted."
        ),
        .value(
            "pictures",
            "MODE",
            help: "How pictures are drawn: auto (the graphics protocol the terminal\n"
                + "declares: kitty, iTerm2 or sixel, else colour half blocks), kitty,\n"
                + "iterm2, sixel, or cells (half blocks; shades without colour).\n"
                + "Default: auto."
        ),
        .flag(
            "make-media",
            help: "Make the built-in catalog's pictures and, with ffmpeg, its videos\ninto the cache, then exit."
        ),
        .flag("help", short: "h", help: "Show this help."),
    ]

    static let usage = HelpText(
        program: "castvideos",
        summary: "the CastVideos sample as a terminal app.",
        discussion: [
            "Browse videos, play them locally, and cast them to a Cast device. A built-in virtual",
            "device (\"Living Room TV (virtual)\") is offered so everything works without one.",
        ],
        options: options,
        sections: [
            HelpText.Section(
                "ENVIRONMENT",
                HelpText.columns([
                    (
                        "CAST_DISCOVERY_INTERFACES",
                        "interfaces for mDNS discovery (comma-separated);\noverrides the setting"
                    ),
                    ("CAST_TRUST_ROOTS", "PEM files of extra device roots (':'-separated)"),
                    (
                        "XDG_CACHE_HOME",
                        "the cache: images, and the built-in media in\ncastvideos/media (default ~/.cache)"
                    ),
                    ("NO_COLOR", "no colour: pictures are drawn in shades"),
                ]).map { String($0.dropFirst(2)) }
            ),
            HelpText.Section("KEYS", ["press ? in the app"]),
        ]
    ).text

    /// Parses the arguments after the program name.
    /// - Throws: ``UsageError`` for an unknown option, a missing value or a value out of range.
    init(arguments: [String]) throws(UsageError) {
        let parsed = try ArgumentParser(program: "castvideos", options: Self.options).parse(arguments)
        if let extra = parsed.positionals.first {
            throw UsageError(.unexpectedArgument, program: "castvideos", "unexpected argument '\(extra)'")
        }
        if let catalog = try parsed.nonEmpty("catalog", program: "castvideos") {
            self.catalog = CatalogSource(argument: catalog)
        }
        themePath = try parsed.nonEmpty("theme", program: "castvideos")
        virtualDevice = !parsed.has("no-virtual-device")
        virtualDeviceLogPath = try parsed.nonEmpty("virtual-device-log", program: "castvideos")
        for value in parsed.allValues("virtual-device-fault") {
            guard let fault = VirtualDeviceFault(rawValue: value) else {
                throw UsageError(
                    .invalidValue,
                    program: "castvideos",
                    "--virtual-device-fault: \"\(value)\" is not refuse-launch or fail-next-load"
                )
            }
            virtualDeviceFaults.append(fault)
        }
        configDirectory = try parsed.nonEmpty("config-dir", program: "castvideos")
        logPath = try parsed.nonEmpty("log", program: "castvideos")
        trustRootPaths = parsed.allValues("trust-root")
        if let text = parsed.value("pictures") {
            // Any case: `--pictures SIXEL` as well as `sixel`.
            guard let mode = PictureOption(rawValue: text.lowercased()) else {
                throw UsageError(
                    .invalidValue,
                    program: "castvideos",
                    "--pictures: \"\(text)\" is not auto, kitty, iterm2, sixel or cells"
                )
            }
            pictures = mode
        }
        makeMedia = parsed.has("make-media")
        showHelp = parsed.has("help")
    }

    /// The files of extra device roots: every `--trust-root`, else those of `CAST_TRUST_ROOTS`.
    func trustRootFiles(environment: [String: String]) -> [String] {
        trustRootPaths.isEmpty ? TrustRootFile.paths(fromList: environment["CAST_TRUST_ROOTS"] ?? "") : trustRootPaths
    }

    /// The configuration directory in force.
    func configDirectoryURL(environment: [String: String]) -> URL {
        if let configDirectory { return URL(fileURLWithPath: configDirectory, isDirectory: true) }
        if let dir = environment["CASTVIDEOS_CONFIG_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir, isDirectory: true)
        }
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("castvideos", isDirectory: true)
        }
        let home =
            environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".config/castvideos", isDirectory: true)
    }
}

/// A misbehaviour of the built-in virtual device, for trying the app's error paths.
enum VirtualDeviceFault: String, Hashable, Sendable {
    /// Every LAUNCH is refused: starting a session fails ("Failed to start a session").
    case refuseLaunch = "refuse-launch"
    /// The next LOAD fails.
    case failNextLoad = "fail-next-load"
}

/// How the app draws pictures.
enum PictureOption: String, Hashable, Sendable, CaseIterable {
    case auto
    case kitty
    case iterm2
    case sixel
    case cells

    /// What the terminal loop does with it.
    var graphicsChoice: TerminalApp.GraphicsChoice {
        switch self {
        case .auto: .detect
        case .kitty: .fixed(.kitty)
        case .iterm2: .fixed(.iTerm2)
        case .sixel: .fixed(.sixel)
        case .cells: .cellsOnly
        }
    }
}
