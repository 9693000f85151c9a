import CastArguments
import CastCore
import CastNet
import CastNetCore
import Foundation

// mdns-tool: browse for or advertise Cast devices over mDNS on chosen interfaces, printing
// one JSON object per line. Used by the discovery tests inside network namespaces.
//
//   mdns-tool browse --interface NAME [--app-id ID] [--ipv4-only | --ipv6-only] [--seconds N]
//   mdns-tool advertise --interface NAME --id HEX --name NAME [--model MODEL] [--port P]
//                       [--app-id ID]... [--ipv4-only | --ipv6-only] [--seconds N]
//
// `advertise` stops (with goodbyes) on a line `quit` on standard input or after N seconds.

struct Options {
    static let program = "mdns-tool"
    static let options: [OptionSpec] = [
        .value("interface", "NAME", help: "Run on this interface (repeatable; default: every multicast one)."),
        .value("app-id", "ID", help: "browse: ask for this app's subtype; advertise: list it (repeatable)."),
        .value("id", "HEX", help: "advertise: the device id, 32 hex digits."),
        .value("name", "NAME", help: "advertise: the friendly name."),
        .value("model", "MODEL", help: "advertise: the model name (default \"Swift Cast Test\")."),
        .value("port", "P", help: "advertise: the Cast port (default 8009)."),
        .flag("ipv4-only", help: "Use IPv4 only."),
        .flag("ipv6-only", help: "Use IPv6 only."),
        .value("seconds", "N", help: "Stop after N seconds (default 30)."),
        .flag("help", short: "h", help: "Show this help."),
    ]
    static let help = HelpText(
        program: program,
        summary: "browse for or advertise Cast devices over mDNS, one JSON object per line.",
        usage: "browse|advertise [options]",
        discussion: ["advertise stops (with goodbyes) on a line \"quit\" on standard input or after N seconds."],
        options: options
    ).text

    var command = ""
    var interfaces: [String] = []
    var appIDs: [String] = []
    var id = ""
    var name = ""
    var model = "Swift Cast Test"
    var port: UInt16 = 8009
    var ipv4 = true
    var ipv6 = true
    var seconds = 30.0
    var showHelp = false

    init(_ arguments: [String]) throws(UsageError) {
        let parsed = try ArgumentParser(program: Self.program, options: Self.options).parse(arguments)
        showHelp = parsed.has("help")
        if showHelp { return }
        guard parsed.positionals.count == 1, let command = parsed.positionals.first,
            ["browse", "advertise"].contains(command)
        else {
            throw UsageError(.missingArgument, program: Self.program, "the command must be browse or advertise")
        }
        self.command = command
        interfaces = parsed.allValues("interface")
        appIDs = parsed.allValues("app-id")
        id = parsed.value("id") ?? ""
        name = parsed.value("name") ?? ""
        model = parsed.value("model") ?? model
        port = UInt16(try parsed.port("port", program: Self.program) ?? 8009)
        seconds = try parsed.number("seconds", in: 0...86_400, program: Self.program) ?? seconds
        ipv6 = !parsed.has("ipv4-only")
        ipv4 = !parsed.has("ipv6-only")
    }
}

func emit(_ object: [String: Any]) {
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}

func describe(_ device: CastDevice) -> [String: Any] {
    [
        "id": device.idText, "fn": device.friendlyName ?? NSNull(), "md": device.modelName ?? NSNull(),
        "port": Int(device.port), "addresses": device.addresses.map(\.description), "service": device.serviceName,
    ]
}

func browse(_ options: Options) async throws {
    let browser = try MDNSBrowser(
        configuration: .init(
            applicationID: options.appIDs.first,
            interfaceNames: options.interfaces.isEmpty ? nil : options.interfaces,
            usesIPv4: options.ipv4,
            usesIPv6: options.ipv6
        )
    )
    try browser.start()
    emit(["event": "started", "interfaces": browser.interfaceNames])
    let events = browser.events
    let deadline = Task {
        try? await Task.sleep(for: .seconds(options.seconds))
        browser.stop()
        exit(0)
    }
    for await event in events {
        emit(["event": event.kind.rawValue].merging(describe(event.device)) { first, _ in first })
    }
    deadline.cancel()
}

func advertise(_ options: Options) async throws {
    guard let id = CastDevice.parseID(options.id) else {
        throw UsageError(.invalidValue, program: Options.program, "--id: \"\(options.id)\" is not 32 hex digits")
    }
    let responder = try MDNSResponder(
        interfaceNames: options.interfaces.isEmpty ? nil : options.interfaces,
        usesIPv4: options.ipv4,
        usesIPv6: options.ipv6
    )
    let device = CastDevice(id: id, friendlyName: options.name, modelName: options.model, port: options.port)
    _ = responder.register(MDNSService(castDevice: device, applicationIDs: options.appIDs))
    let events = responder.events
    Task {
        for await event in events { emit(["event": event.kind.rawValue, "name": event.name]) }
    }
    let quit = Task.detached {
        while let line = readLine() {
            if line == "quit" { return }
        }
    }
    let timeout = Task {
        try? await Task.sleep(for: .seconds(options.seconds))
    }
    await withTaskGroup(of: Void.self) { group in
        group.addTask { await quit.value }
        group.addTask { await timeout.value }
        await group.next()
        group.cancelAll()
        timeout.cancel()
    }
    responder.shutdown()
    emit(["event": "stopped"])
    exit(0)
}

let options: Options
do {
    options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("\(error.report)\n".utf8))
    exit(UsageError.exitStatus)
}
if options.showHelp {
    print(Options.help, terminator: "")
    exit(0)
}
do {
    switch options.command {
    case "browse": try await browse(options)
    default: try await advertise(options)
    }
} catch let error as UsageError {
    FileHandle.standardError.write(Data("\(error.report)\n".utf8))
    exit(UsageError.exitStatus)
} catch {
    FileHandle.standardError.write(Data("error: mdns-tool: \(error)\n".utf8))
    exit(1)
}
