import CastArguments
import CastCrypto
import CastEmulator
import CastNet
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Writes a line to standard error.
func report(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

let options: EmulatorOptions
do {
    options = try EmulatorOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    report(error.report)
    exit(UsageError.exitStatus)
}
if options.showHelp {
    print(EmulatorOptions.help, terminator: "")
    exit(0)
}

var fleetConfiguration: FleetConfiguration
do {
    fleetConfiguration = try options.fleetConfiguration()
} catch let error as UsageError {
    report(error.report)
    exit(UsageError.exitStatus)
} catch {
    report("error: cast-emulator: \(error)")
    exit(UsageError.exitStatus)
}

// The chain the devices sign with: --auth-chain or the config file's, else the one kept in the
// state directory (made on the first start), so a root a sender trusts stays good.
var rootFile: String? = options.authChainDirectory.map {
    URL(fileURLWithPath: $0).appendingPathComponent("root.pem").path
}
if fleetConfiguration.authChain == nil {
    let state = EmulatorStateDirectory.resolve(
        option: options.stateDirectory,
        environment: ProcessInfo.processInfo.environment
    )
    do {
        let (chain, madeBecause) = try state.authChain()
        fleetConfiguration.useAuthChain(chain)
        rootFile = state.authChainDirectory.appendingPathComponent("root.pem").path
        if let madeBecause {
            report("auth: made a new device-authentication chain in \(state.authChainDirectory.path) (\(madeBecause))")
        }
    } catch {
        report(
            "cast-emulator: warning: cannot keep a device-authentication chain in \(state.url.path): \(error); "
                + "this run signs with a chain of its own (--auth-root-out FILE writes its root)"
        )
    }
}
if let rootFile {
    report("auth: devices sign with the root in \(rootFile) (cast --trust-root \(rootFile))")
}

if let path = options.authRootOut {
    guard let root = fleetConfiguration.authRoot else {
        report("cast-emulator: --auth-root-out: no device-authentication chain could be generated")
        exit(70)
    }
    do {
        try root.pemString.write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
        report("cast-emulator: --auth-root-out: cannot write \(path): \(error)")
        exit(73)
    }
}

let log: (any FrameLogSink)?
switch options.log {
case nil:
    log = nil
case .standardOutput:
    log = JSONLinesFrameLog(handle: .standardOutput)
case .file(let path):
    do {
        log = try JSONLinesFrameLog(path: path)
    } catch {
        report("cast-emulator: --log: cannot open \(path): \(error)")
        exit(73)
    }
}

// Three listening sockets per device (unless shared) and room for a sender connection to each.
let listening = fleetConfiguration.sharesPorts ? 3 : fleetConfiguration.devices.count * 3
let needed = listening + fleetConfiguration.devices.count + 64
let descriptorLimit = ResourceLimits.raiseOpenFileLimit()
if descriptorLimit > 0 && descriptorLimit < needed {
    report(
        "cast-emulator: warning: open-file limit \(descriptorLimit) is below the \(needed) this fleet needs"
            + (fleetConfiguration.sharesPorts ? "" : " (--shared-ports needs \(needed - listening + 3))")
    )
}

let stopSignals = StopSignals()
let fleet = DeviceFleet(log: log)

let exitCode: Int32 = await {
    let devices: [VirtualDevice]
    do {
        devices = try await fleet.start(fleetConfiguration)
    } catch {
        report("cast-emulator: cannot start: \(error)")
        return 69
    }
    for device in devices {
        let ports = device.ports
        let identity = device.configuration.identity
        if let members = fleetConfiguration.groups.first(where: { $0.name == identity.friendlyName })?.members,
            device.configuration.profile.kind == .speakerGroup
        {
            report(
                "group \"\(identity.friendlyName)\" id=\(identity.deviceID) address=\(device.options.address)"
                    + " cast=\(ports?.cast ?? 0) members=\(members.joined(separator: ","))"
            )
            continue
        }
        report(
            "device \"\(identity.friendlyName)\" id=\(identity.deviceID) address=\(device.options.address)"
                + " cast=\(ports?.cast ?? 0) http=\(ports?.http ?? 0) https=\(ports?.https ?? 0)"
                + (device.screenURL.map { " screen=\($0)" } ?? "")
        )
    }
    if let interfaces = await fleet.mdnsInterfaceNames {
        report("mdns: advertising on \(interfaces.joined(separator: ", "))")
    }
    report("ready")
    let received = await stopSignals.wait()
    report("cast-emulator: signal \(received): stopping \(devices.count) device(s)")
    await fleet.stop()
    return 0
}()
exit(exitCode)
