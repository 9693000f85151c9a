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

    static let usage = """
        Usage: castvideos [options]

        The CastVideos sample as a terminal app: browse videos, play them locally, and cast
        them to a Cast device. A built-in virtual device ("Living Room TV (virtual)") is
        offered so everything works without one.

        Options:
          --catalog URL|FILE          load the catalog from a CastVideos JSON file or URL
                                      (default: the catalog built into the app)
          --theme FILE                apply a JSON theme to the Cast widgets
          --no-virtual-device         do not start the built-in virtual device
          --virtual-device-log FILE   append the virtual device's frame log (JSON lines)
          --virtual-device-fault F    make the virtual device misbehave, to see how the app
                                      copes: refuse-launch, fail-next-load (repeatable)
          --config-dir DIR            where settings and one-time flags are kept
                                      (default: $CASTVIDEOS_CONFIG_DIR, else
                                      $XDG_CONFIG_HOME/castvideos, else ~/.config/castvideos)
          --log FILE                  where SDK log lines go (default: castvideos.log in the
                                      configuration directory)
          --trust-root FILE           also trust the Cast device roots in this PEM file, such
                                      as cast-emulator --auth-root-out writes (repeatable;
                                      default: $CAST_TRUST_ROOTS). Devices must authenticate
                                      with Google's roots or one of these; the built-in
                                      virtual device's root is always trusted
          --pictures MODE             how pictures are drawn: auto (the graphics protocol
                                      the terminal declares: kitty, iTerm2 or sixel, else
                                      colour half blocks), kitty, iterm2, sixel, or cells
                                      (half blocks; shades without colour). Default: auto
          --make-media                make the built-in catalog's pictures and, with ffmpeg,
                                      its videos into the cache, then exit
          -h, --help                  show this help

        Environment:
          CAST_DISCOVERY_INTERFACES   interfaces for mDNS discovery (comma-separated);
                                      overrides the setting
          CAST_TRUST_ROOTS            PEM files of extra device roots (':'-separated)
          XDG_CACHE_HOME              the cache: images, and the built-in media in
                                      castvideos/media (default ~/.cache)
          NO_COLOR                    no colour: pictures are drawn in shades

        Keys: press ? in the app.
        """

    /// Parses the arguments after the program name.
    /// - Throws: ``OptionsError`` for an unknown option or a missing value.
    init(arguments: [String]) throws(OptionsError) {
        var iterator = arguments.makeIterator()
        func value(for option: String) throws(OptionsError) -> String {
            guard let next = iterator.next(), !next.isEmpty else { throw OptionsError.missingValue(option) }
            return next
        }
        while let argument = iterator.next() {
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func takeValue() throws(OptionsError) -> String {
                if let inlineValue {
                    guard !inlineValue.isEmpty else { throw OptionsError.missingValue(name) }
                    return inlineValue
                }
                return try value(for: name)
            }
            switch name {
            case "--catalog": catalog = CatalogSource(argument: try takeValue())
            case "--theme": themePath = try takeValue()
            case "--no-virtual-device": virtualDevice = false
            case "--virtual-device-log": virtualDeviceLogPath = try takeValue()
            case "--virtual-device-fault":
                let value = try takeValue()
                guard let fault = VirtualDeviceFault(rawValue: value) else {
                    throw OptionsError.invalidValue(name, value)
                }
                virtualDeviceFaults.append(fault)
            case "--config-dir": configDirectory = try takeValue()
            case "--log": logPath = try takeValue()
            case "--trust-root": trustRootPaths.append(try takeValue())
            case "--pictures":
                let value = try takeValue()
                guard let mode = PictureOption(rawValue: value.lowercased()) else {
                    throw OptionsError.invalidValue(name, value)
                }
                pictures = mode
            case "--make-media": makeMedia = true
            case "-h", "--help": showHelp = true
            default: throw OptionsError.unknownOption(argument)
            }
        }
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

/// A command line that cannot be used.
struct OptionsError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Int, Sendable {
        case unknownOption = 1
        case missingValue = 2
        case invalidValue = 3
    }

    private let code: Code
    /// The option at fault.
    let option: String
    /// The value refused, if any.
    var value: String?

    var rawValue: Int { code.rawValue }

    static func unknownOption(_ option: String) -> OptionsError { OptionsError(code: .unknownOption, option: option) }
    static func missingValue(_ option: String) -> OptionsError { OptionsError(code: .missingValue, option: option) }
    static func invalidValue(_ option: String, _ value: String) -> OptionsError {
        OptionsError(code: .invalidValue, option: option, value: value)
    }

    var description: String {
        switch code {
        case .unknownOption: "unknown option '\(option)' (try --help)"
        case .missingValue: "option '\(option)' needs a value"
        case .invalidValue: "option '\(option)' does not accept '\(value ?? "")' (try --help)"
        }
    }
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

/// A misbehaviour of the built-in virtual device, for trying the app's error paths.
enum VirtualDeviceFault: String, Hashable, Sendable {
    /// Every LAUNCH is refused: starting a session fails ("Failed to start a session").
    case refuseLaunch = "refuse-launch"
    /// The next LOAD fails.
    case failNextLoad = "fail-next-load"
}
