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
    /// `--group NAME=DEV1,DEV2`, in order.
    var groups: [FleetConfiguration.Group] = []
    var showHelp = false

    /// A command-line error, with the exit code 64 (usage).
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    static let help = """
        USAGE: cast-emulator [options]

        Runs virtual Google Cast devices that real senders (pychromecast, catt, the swift-cast SDK)
        accept: TLS Cast channel on 8009, setup HTTP on 8008 and HTTPS on 8443, each device on its
        own address (127.0.0.2, 127.0.0.3, ... by default).

        OPTIONS:
          --devices N         Number of devices to run (default 1). Names: NAME, NAME 2, NAME 3...
          --name NAME         Friendly name of the first device (default "Virtual Cast").
          --model MODEL       Model name (default "Chromecast"); it selects the device class the
                              device speaks as, from real captures: Chromecast (HDMI dongle,
                              fixed volume), "Chromecast with Google TV", speakers ("Google
                              Home", "Google Nest Mini", "Chromecast Audio"), displays ("Google
                              Nest Hub"), TVs (any model with "TV"). See docs/emulator.md.
          --address A         IPv4 address of the first device; the others follow (default 127.0.0.2).
          --config FILE       JSON file describing the devices and apps (replaces --devices,
                              --name, --model and --address; see CONFIG FILE).
          --log               Write one JSON line per frame in or out, and per connection event,
                              to standard output: {"time", "device", "connection", "direction"
                              ("in", "out", "event"), "namespace", "source", "destination",
                              "payload"}.
          --log=FILE          The same, appended to FILE.
          --control           Enable the fault-injection endpoint on each device's plain HTTP port
                              (loopback addresses only): POST /control/faults with a JSON object
                              {"ignorePings": bool, "refuseLaunch": bool or reason, "failNextLoad":
                              bool, "replyDelayMs": int, "dropConnections": true, "crashMidFrame":
                              true, "restartApp": true, "reboot": true, "sendGarbage": true,
                              "oversizeFrame": true, "trickleMs": int, "clear": true,
                              "standBy": bool, "activeInput": bool (TVs)};
                              GET /control/faults shows the lasting faults. Every control
                              request needs the header X-Cast-Control (curl -H 'X-Cast-Control: 1')
                              and a Host naming the device, so no web page can send one.
          --group NAME=DEV1,DEV2
                              A speaker group of the named devices (speakers or displays; the
                              first leads it): a device of its own, model "Google Cast Group",
                              on the leader's address at Cast port 32101, 32102, ... (repeatable;
                              also "groups" in CONFIG FILE). See docs/emulator.md.
          --cast-port P       Port of the Cast channel (default 8009; 0 = ephemeral).
          --http-port P       Port of the setup HTTP server (default 8008; 0 = ephemeral).
          --https-port P      Port of the setup HTTPS server (default 8443; 0 = ephemeral).
          --shared-ports      One listening socket per port for all devices instead of three
                              per device, accepting on the loopback interface only (devices on
                              127.x.y.z): 10,000 devices hold 3 listening descriptors, not 30,000.
          --mdns [IFACE,...]  Advertise the devices over mDNS/DNS-SD (_googlecast._tcp) so that
                              senders discover them. Without a list: on the loopback interface
                              only, which suits devices on 127.0.0.x and keeps every packet on
                              this machine. With a list (--mdns eth0,wlan0 or --mdns=eth0): on
                              those interfaces. Off unless given (also "mdns" in CONFIG FILE).
          --status-interval S While media plays, send every connected sender an unsolicited
                              MEDIA_STATUS every S seconds (0.1 to 3600; default: only on change).
          --media MODE        fetch (default): read the media a LOAD names, as a receiver does
                              (duration, tracks, picture size, live streams from the media;
                              LOAD_FAILED for media that cannot be read). auto: the same, but
                              media whose host cannot be resolved or reached plays simulated.
                              simulate: never read media (also "media" in CONFIG FILE).
          --screen on|off     Show each device's TV screen at http://ADDRESS:8008/ (a page a
                              browser opens: idle backdrop, app, media, progress, captions, ads,
                              volume; it plays the media in step with the device). Default: on
                              for loopback addresses, off elsewhere (also "screen" per device in
                              CONFIG FILE).
          --auth-chain DIR    Sign device-authentication answers with the chain in DIR: root.pem,
                              intermediate.pem, device.pem, device-key.pem and optionally
                              device-audio.pem (audio-only policy, used by speakers). Default: a
                              root -> intermediate -> device chain (RSA-2048) generated at start.
                              Also "authChain" in CONFIG FILE; "auth": "error" makes a device
                              answer AuthError as a receiver without credentials does.
          --auth-root-out FILE
                              Write the root of the chain in use as PEM to FILE, for senders to
                              trust (cast --trust-root FILE, the SDK's additionalTrustAnchors).
          -h, --help          Show this help.

        CONFIG FILE:
          {"mdns": ["lo"],
           "apps": [{"appId": "4F8B3483", "displayName": "Hello",
                     "namespaces": ["urn:x-cast:com.example.hello"], "statusText": "Hi",
                     "androidTVAppId": "2C6A6E3D"}],
           "devices": [{"name": "Living Room TV", "id": "<32 hex digits>", "model": "Chromecast",
                        "profile": "hdmi-dongle|google-tv|speaker|display|tv|generic",
                        "manufacturer": "Google Inc.", "capabilities": ["video_out", "audio_out"],
                        "address": "127.0.0.2", "castPort": 8009, "httpPort": 8008,
                        "httpsPort": 8443, "locale": "en-US", "timezone": "UTC", "volume": 1.0,
                        "idleScreen": true, "bufferingMs": 200, "media": "fetch", "mediaDurationSeconds": 600,
                        "statusIntervalSeconds": 1, "control": true, "screen": true, "apps": [...]}],
           "groups": [{"name": "Kitchen group", "members": ["Kitchen", "Hall"], "leader": "Kitchen",
                       "id": "<32 hex digits>", "castPort": 32101}]}
          Only devices[].name is required. Every device runs the Default Media Receiver
          (CC1AD845) and Backdrop plus the listed apps; apps with a custom namespace echo
          messages back. A device without "address" takes the one after the previous device's.
          "mdns" is true (loopback only) or a list of interfaces; --mdns overrides it.

        On start, one line per device goes to standard error:
          device "NAME" id=ID address=A cast=8009 http=8008 https=8443 screen=http://A:8008/
        (screen= only when the device shows its screen),
        with --mdns, "mdns: advertising on IFACE, ...", then "ready". SIGINT or SIGTERM stops
        every device (sending mDNS goodbyes) and exits with status 0.
        """

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> EmulatorOptions {
        var options = EmulatorOptions()
        var index = 0
        func value(for option: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(description: "\(option) needs a value") }
            return arguments[index]
        }
        func port(for option: String) throws(UsageError) -> Int {
            let text = try value(for: option)
            guard let port = Int(text), (0...65_535).contains(port) else {
                throw UsageError(description: "\(option): \"\(text)\" is not a port from 0 to 65535")
            }
            return port
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-h", "--help":
                options.showHelp = true
            case "--devices":
                let text = try value(for: argument)
                guard let count = Int(text), (1...Self.maximumDeviceCount).contains(count) else {
                    throw UsageError(
                        description: "--devices: \"\(text)\" is not a number from 1 to \(Self.maximumDeviceCount)"
                    )
                }
                options.deviceCount = count
            case "--name":
                options.name = try value(for: argument)
                guard !options.name.isEmpty else { throw UsageError(description: "--name must not be empty") }
            case "--model":
                options.model = try value(for: argument)
            case "--address":
                options.firstAddress = try value(for: argument)
            case "--config":
                options.configFile = try value(for: argument)
            case "--log":
                options.log = .standardOutput
            case "--control":
                options.control = true
            case "--shared-ports":
                options.sharesPorts = true
            case "--cast-port":
                options.castPort = try port(for: argument)
            case "--http-port":
                options.httpPort = try port(for: argument)
            case "--https-port":
                options.httpsPort = try port(for: argument)
            case "--mdns":
                if index + 1 < arguments.count, !arguments[index + 1].hasPrefix("-") {
                    index += 1
                    options.mdns = try interfaceList(arguments[index])
                } else {
                    options.mdns = []
                }
            case "--group":
                let text = try value(for: argument)
                do {
                    options.groups.append(try FleetConfiguration.group(option: text))
                } catch {
                    throw UsageError(description: "--group: \(error.detail)")
                }
            case "--auth-chain":
                options.authChainDirectory = try value(for: argument)
            case "--auth-root-out":
                options.authRootOut = try value(for: argument)
            case "--media":
                let text = try value(for: argument)
                guard let mode = MediaMode(rawValue: text) else {
                    throw UsageError(description: "--media: \"\(text)\" is not fetch, auto or simulate")
                }
                options.media = mode
            case "--screen":
                let text = try value(for: argument)
                switch text {
                case "on": options.screen = true
                case "off": options.screen = false
                default: throw UsageError(description: "--screen: \"\(text)\" is not on or off")
                }
            case "--status-interval":
                let text = try value(for: argument)
                guard let seconds = Double(text), seconds.isFinite, (0.1...3600).contains(seconds) else {
                    throw UsageError(
                        description: "--status-interval: \"\(text)\" is not a number of seconds from 0.1 to 3600"
                    )
                }
                options.statusInterval = .milliseconds(Int((seconds * 1000).rounded()))
            default:
                if argument.hasPrefix("--mdns=") {
                    options.mdns = try interfaceList(String(argument.dropFirst("--mdns=".count)))
                } else if argument.hasPrefix("--log=") {
                    let path = String(argument.dropFirst("--log=".count))
                    guard !path.isEmpty else { throw UsageError(description: "--log= needs a file name") }
                    options.log = path == "-" ? .standardOutput : .file(path)
                } else {
                    throw UsageError(description: "unknown option \"\(argument)\" (see --help)")
                }
            }
            index += 1
        }
        return options
    }

    /// `lo,eth0` as interface names; an empty list or name is an error.
    private static func interfaceList(_ text: String) throws(UsageError) -> [String] {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard !names.contains(where: \.isEmpty) else {
            throw UsageError(description: "--mdns: \"\(text)\" is not a comma-separated list of interface names")
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
                throw UsageError(description: "--config: cannot read \(error)")
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
            throw UsageError(description: "\(error.path): \(error.detail)")
        }
        if let authChainDirectory {
            do {
                fleet.useAuthChain(try DeviceAuthChain.load(directory: authChainDirectory))
            } catch {
                throw UsageError(description: "--auth-chain: \(error)")
            }
        }
        return fleet
    }
}
