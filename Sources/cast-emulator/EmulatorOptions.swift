import CastArguments
import CastAuth
import CastEmulator
import CastNet
import Foundation

/// The parsed command line of `cast-emulator`.
struct EmulatorOptions: Equatable {
    /// The most devices one process runs (10,000 need `--shared-ports` under a
    /// 20,000-descriptor limit: three listening sockets each, plus a sender connection).
    static let maximumDeviceCount = 10_000

    /// Where the frame log goes.
    enum LogTarget: Equatable {
        case standardOutput
        case file(String)
    }

    var deviceCount = 1
    var name = "Virtual Cast"
    var model = "Chromecast"
    var firstAddress = "127.0.0.2"
    var configFile: String?
    var log: LogTarget?
    var control = false
    var sharesPorts = false
    var castPort: Int?
    var httpPort: Int?
    var httpsPort: Int?
    /// Where to advertise over mDNS: `nil` nowhere, empty for loopback only, else interface names.
    var mdns: [String]?
    var statusInterval: Duration?
    /// Whether the devices read the media they are asked to play; `nil` until `--media`.
    var media: MediaMode?
    /// Whether the devices show their screen at `http://ADDRESS:8008/`; `nil` until `--screen`.
    var screen: Bool?
    var authChainDirectory: String?
    var authRootOut: String?
    var stateDirectory: String?
    /// `--group NAME=DEV1,DEV2`, in order.
    var groups: [FleetConfiguration.Group] = []
    var showHelp = false

    static let program = "cast-emulator"

    /// The options, in the order help shows them.
    static let options: [OptionSpec] = [
        .value("devices", "N", help: "Number of devices to run (default 1). Names: NAME, NAME 2, NAME 3..."),
        .value("name", "NAME", help: "Friendly name of the first device (default \"Virtual Cast\")."),
        .value(
            "model",
            "MODEL",
            help: "Model name (default \"Chromecast\"); it selects the device class the\n"
                + "device speaks as, from real captures: Chromecast (HDMI dongle,\n"
                + "fixed volume), \"Chromecast with Google TV\", speakers (\"Google\n"
                + "Home\", \"Google Nest Mini\", \"Chromecast Audio\"), displays (\"Google\n"
                + "Nest Hub\"), TVs (any model with \"TV\"). See docs/emulator.md."
        ),
        .value("address", "A", help: "IPv4 address of the first device; the others follow (default 127.0.0.2)."),
        .value(
            "config",
            "FILE",
            help:
                "JSON file describing the devices and apps (replaces --devices,\n--name, --model and --address; see CONFIG FILE)."
        ),
        .optionalValue(
            "log",
            "FILE",
            help: "Write one JSON line per frame in or out, and per connection event,\n"
                + "to standard output (or, as --log=FILE, append them to FILE):\n"
                + "{\"time\", \"device\", \"connection\", \"direction\" (\"in\", \"out\",\n"
                + "\"event\"), \"namespace\", \"source\", \"destination\", \"payload\"}."
        ),
        .flag(
            "control",
            help: "Enable the fault-injection endpoint on each device's plain HTTP port\n"
                + "(loopback addresses only): POST /control/faults with a JSON object\n"
                + "{\"ignorePings\": bool, \"refuseLaunch\": bool or reason, \"failNextLoad\":\n"
                + "bool, \"replyDelayMs\": int, \"dropConnections\": true, \"crashMidFrame\":\n"
                + "true, \"restartApp\": true, \"reboot\": true, \"sendGarbage\": true,\n"
                + "\"oversizeFrame\": true, \"trickleMs\": int, \"clear\": true,\n"
                + "\"standBy\": bool, \"activeInput\": bool (TVs)};\n"
                + "GET /control/faults shows the lasting faults. Every control\n"
                + "request needs the header X-Cast-Control (curl -H 'X-Cast-Control: 1')\n"
                + "and a Host naming the device, so no web page can send one."
        ),
        .value(
            "group",
            "NAME=DEV1,DEV2",
            help: "A speaker group of the named devices (speakers or displays; the\n"
                + "first leads it): a device of its own, model \"Google Cast Group\",\n"
                + "on the leader's address at Cast port 32101, 32102, ... (repeatable;\n"
                + "also \"groups\" in CONFIG FILE). See docs/emulator.md."
        ),
        .value("cast-port", "P", help: "Port of the Cast channel (default 8009; 0 = ephemeral)."),
        .value("http-port", "P", help: "Port of the setup HTTP server (default 8008; 0 = ephemeral)."),
        .value("https-port", "P", help: "Port of the setup HTTPS server (default 8443; 0 = ephemeral)."),
        .flag(
            "shared-ports",
            help: "One listening socket per port for all devices instead of three\n"
                + "per device, accepting on the loopback interface only (devices on\n"
                + "127.x.y.z): 10,000 devices hold 3 listening descriptors, not 30,000."
        ),
        .optionalValue(
            "mdns",
            "IFACE,...",
            help: "Advertise the devices over mDNS/DNS-SD (_googlecast._tcp) so that\n"
                + "senders discover them. Without a list: on the loopback interface\n"
                + "only, which suits devices on 127.0.0.x and keeps every packet on\n"
                + "this machine. With a list (--mdns eth0,wlan0 or --mdns=eth0): on\n"
                + "those interfaces. Off unless given (also \"mdns\" in CONFIG FILE)."
        ),
        .value(
            "status-interval",
            "S",
            help: "While media plays, send every connected sender an unsolicited\n"
                + "MEDIA_STATUS every S seconds (0.1 to 3600; default: only on change)."
        ),
        .value(
            "media",
            "MODE",
            help: "fetch (default): read the media a LOAD names, as a receiver does\n"
                + "(duration, tracks, picture size, live streams from the media;\n"
                + "LOAD_FAILED for media that cannot be read). auto: the same, but\n"
                + "media whose host cannot be resolved or reached plays simulated.\n"
                + "simulate: never read media (also \"media\" in CONFIG FILE)."
        ),
        .value(
            "screen",
            "on|off",
            help: "Show each device's TV screen at http://ADDRESS:8008/ (a page a\n"
                + "browser opens: idle backdrop, app, media, progress, captions, ads,\n"
                + "volume; it plays the media in step with the device). Default: on\n"
                + "for loopback addresses, off elsewhere (also \"screen\" per device in\n"
                + "CONFIG FILE)."
        ),
        .value(
            "auth-chain",
            "DIR",
            help: "Sign device-authentication answers with the chain in DIR: root.pem,\n"
                + "intermediate.pem, device.pem, device-key.pem and optionally\n"
                + "device-audio.pem (audio-only policy, used by speakers). Default: the\n"
                + "chain kept in the state directory (auth-chain/), a root ->\n"
                + "intermediate -> device chain (RSA-2048) made on the first start and\n"
                + "used by every later one. Also \"authChain\" in CONFIG FILE; \"auth\":\n"
                + "\"error\" makes a device answer AuthError as a receiver without\n"
                + "credentials does."
        ),
        .value(
            "auth-root-out",
            "FILE",
            help: "Also write the root of the chain in use as PEM to FILE, for senders\n"
                + "to trust (cast --trust-root FILE, the SDK's additionalTrustAnchors)."
        ),
        .value(
            "state-dir",
            "DIR",
            help: "Where the emulator keeps what outlives a run (the chain above).\n"
                + "Default: CAST_EMULATOR_STATE_DIR, else $XDG_STATE_HOME/cast-emulator,\n"
                + "else ~/.local/state/cast-emulator."
        ),
        .flag("help", short: "h", help: "Show this help."),
    ]

    static let help = HelpText(
        program: program,
        summary: "virtual Google Cast devices.",
        discussion: [
            "Runs virtual Google Cast devices that real senders (pychromecast, catt, the swift-cast SDK)",
            "accept: TLS Cast channel on 8009, setup HTTP on 8008 and HTTPS on 8443, each device on its",
            "own address (127.0.0.2, 127.0.0.3, ... by default).",
        ],
        options: options,
        sections: [
            HelpText.Section(
                "CONFIG FILE",
                [
                    #"{"mdns": ["lo"],"#,
                    #" "apps": [{"appId": "4F8B3483", "displayName": "Hello","#,
                    #"           "namespaces": ["urn:x-cast:com.example.hello"], "statusText": "Hi","#,
                    #"           "androidTVAppId": "2C6A6E3D"}],"#,
                    #" "devices": [{"name": "Living Room TV", "id": "<32 hex digits>", "model": "Chromecast","#,
                    #"              "profile": "hdmi-dongle|google-tv|speaker|display|tv|generic","#,
                    #"              "manufacturer": "Google Inc.", "capabilities": ["video_out", "audio_out"],"#,
                    #"              "address": "127.0.0.2", "castPort": 8009, "httpPort": 8008,"#,
                    #"              "httpsPort": 8443, "locale": "en-US", "timezone": "UTC", "volume": 1.0,"#,
                    #"              "idleScreen": true, "bufferingMs": 200, "media": "fetch", "mediaDurationSeconds": 600,"#,
                    #"              "statusIntervalSeconds": 1, "control": true, "screen": true, "apps": [...]}],"#,
                    #" "groups": [{"name": "Kitchen group", "members": ["Kitchen", "Hall"], "leader": "Kitchen","#,
                    #"             "id": "<32 hex digits>", "castPort": 32101}]}"#,
                    "Only devices[].name is required. Every device runs the Default Media Receiver",
                    "(CC1AD845) and Backdrop plus the listed apps; apps with a custom namespace echo",
                    "messages back. A device without \"address\" takes the one after the previous device's.",
                    "\"mdns\" is true (loopback only) or a list of interfaces; --mdns overrides it.",
                ]
            ),
            HelpText.Section(
                "OUTPUT",
                [
                    "On start, the root senders must trust goes to standard error:",
                    "  auth: devices sign with the root in FILE (cast --trust-root FILE)",
                    "then one line per device:",
                    "  device \"NAME\" id=ID address=A cast=8009 http=8008 https=8443 screen=http://A:8008/",
                    "(screen= only when the device shows its screen),",
                    "with --mdns, \"mdns: advertising on IFACE, ...\", then \"ready\". SIGINT or SIGTERM stops",
                    "every device (sending mDNS goodbyes) and exits with status 0. A usage error exits with 2.",
                ]
            ),
        ]
    ).text

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> EmulatorOptions {
        let parsed = try ArgumentParser(program: program, options: Self.options).parse(arguments)
        if let extra = parsed.positionals.first {
            throw UsageError(.unexpectedArgument, program: program, "unexpected argument '\(extra)'")
        }
        var options = EmulatorOptions()
        options.showHelp = parsed.has("help")
        options.deviceCount = try parsed.integer("devices", in: 1...Self.maximumDeviceCount, program: program) ?? 1
        options.name = try parsed.nonEmpty("name", program: program) ?? options.name
        options.model = parsed.value("model") ?? options.model
        options.firstAddress = parsed.value("address") ?? options.firstAddress
        options.configFile = parsed.value("config")
        if let log = parsed.value("log") {
            options.log = log.isEmpty || log == "-" ? .standardOutput : .file(log)
        }
        options.control = parsed.has("control")
        options.sharesPorts = parsed.has("shared-ports")
        options.castPort = try parsed.port("cast-port", program: program)
        options.httpPort = try parsed.port("http-port", program: program)
        options.httpsPort = try parsed.port("https-port", program: program)
        if let mdns = parsed.value("mdns") {
            options.mdns = mdns.isEmpty ? [] : try interfaceList(mdns)
        }
        for text in parsed.allValues("group") {
            do {
                options.groups.append(try FleetConfiguration.group(option: text))
            } catch {
                throw UsageError(.invalidValue, program: program, "--group: \(error.detail)")
            }
        }
        options.authChainDirectory = parsed.value("auth-chain")
        options.authRootOut = parsed.value("auth-root-out")
        options.stateDirectory = try parsed.nonEmpty("state-dir", program: program)
        if let media = try parsed.choice("media", from: ["fetch", "auto", "simulate"], program: program) {
            options.media = MediaMode(rawValue: media)
        }
        if let screen = try parsed.choice("screen", from: ["on", "off"], program: program) {
            options.screen = screen == "on"
        }
        if let seconds = try parsed.number("status-interval", in: 0.1...3600, program: program) {
            options.statusInterval = .milliseconds(Int((seconds * 1000).rounded()))
        }
        return options
    }

    /// `lo,eth0` as interface names; an empty list or name is an error.
    private static func interfaceList(_ text: String) throws(UsageError) -> [String] {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard !names.contains(where: \.isEmpty) else {
            throw UsageError(
                .invalidValue,
                program: program,
                "--mdns: \"\(text)\" is not a comma-separated list of interface names"
            )
        }
        return names
    }

    /// The fleet these options describe.
    func fleetConfiguration() throws -> FleetConfiguration {
        var fleet: FleetConfiguration
        if let configFile {
            let data: [UInt8]
            do {
                data = try LocalFile.read(path: configFile, limit: 16 << 20)
            } catch {
                throw UsageError(.invalidValue, program: Self.program, "--config: cannot read \(error)")
            }
            fleet = try FleetConfiguration(json: data, defaultMediaMode: media ?? .fetch)
        } else {
            fleet = try FleetConfiguration.generated(
                count: deviceCount,
                name: name,
                firstAddress: firstAddress,
                model: model
            )
        }
        for index in fleet.devices.indices {
            if control { fleet.devices[index].options.controlEndpointEnabled = true }
            if let castPort { fleet.devices[index].options.castPort = castPort }
            if let httpPort { fleet.devices[index].options.httpPort = httpPort }
            if let httpsPort { fleet.devices[index].options.httpsPort = httpsPort }
            if let statusInterval { fleet.devices[index].configuration.statusInterval = statusInterval }
            if let screen { fleet.devices[index].options.screen = screen }
            if configFile == nil || media != nil { fleet.devices[index].configuration.mediaMode = media ?? .fetch }
        }
        if let mdns { fleet.mdnsInterfaces = mdns }
        if sharesPorts { fleet.sharesPorts = true }
        fleet.groups += groups
        for index in fleet.groups.indices where castPort == 0 { fleet.groups[index].castPort = 0 }
        do {
            try fleet.validateGroups(path: configFile == nil ? "--group" : "groups")
        } catch {
            throw UsageError(.invalidValue, program: Self.program, "\(error.path): \(error.detail)")
        }
        if let authChainDirectory {
            do {
                fleet.useAuthChain(try DeviceAuthChain.load(directory: authChainDirectory))
            } catch {
                throw UsageError(.invalidValue, program: Self.program, "--auth-chain: \(error)")
            }
        }
        return fleet
    }
}
