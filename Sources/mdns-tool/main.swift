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

    init(_ arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        command = iterator.next() ?? ""
        func value(_ flag: String) throws -> String {
            guard let value = iterator.next() else { throw UsageError("\(flag) needs a value") }
            return value
        }
        while let flag = iterator.next() {
            switch flag {
            case "--interface": interfaces.append(try value(flag))
            case "--app-id": appIDs.append(try value(flag))
            case "--id": id = try value(flag)
            case "--name": name = try value(flag)
            case "--model": model = try value(flag)
            case "--port": port = UInt16(try value(flag)) ?? 0
            case "--seconds": seconds = Double(try value(flag)) ?? 30
            case "--ipv4-only": ipv6 = false
            case "--ipv6-only": ipv4 = false
            default: throw UsageError("unknown option \(flag)")
            }
        }
        guard ["browse", "advertise"].contains(command) else { throw UsageError("command must be browse or advertise") }
    }
}

struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
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
    guard let id = CastDevice.parseID(options.id) else { throw UsageError("--id must be 32 hex digits") }
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

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    switch options.command {
    case "browse": try await browse(options)
    default: try await advertise(options)
    }
} catch {
    FileHandle.standardError.write(Data("mdns-tool: \(error)\n".utf8))
    exit(2)
}
