import CastSender
import CastSenderUI
import Foundation
import TerminalUI

let environment = ProcessInfo.processInfo.environment
let options: CommandLineOptions
do {
    options = try CommandLineOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("castvideos: \(error)\n".utf8))
    exit(2)
}
if options.showHelp {
    print(CommandLineOptions.usage)
    exit(0)
}

let configDirectory = options.configDirectoryURL(environment: environment)
let (settings, settingsProblem) = SettingsStore(directory: configDirectory).load()

// Discovery runs on the interfaces of the environment variable, else on those of the settings.
if environment["CAST_DISCOVERY_INTERFACES"] == nil, let names = settings.interfaceNames {
    setenv("CAST_DISCOVERY_INTERFACES", names.joined(separator: ","), 1)
}

// Step 11: the theme goes through the widgets' style API.
var styles = AppStyles()
if let themePath = options.themePath {
    do {
        try CastStyle.shared.loadTheme(from: URL(fileURLWithPath: themePath))
    } catch {
        FileHandle.standardError.write(Data("castvideos: theme \(themePath): \(error)\n".utf8))
        exit(2)
    }
    styles.apply(CastStyle.shared)
}

// Step 5 of the codelab: the context, early, with the receiver app and logging.
var castOptions = CastOptions(receiverApplicationID: settings.receiverApplicationID)
castOptions.physicalVolumeButtonsWillControlDeviceVolume = true
castOptions.launchOptions = LaunchOptions(androidReceiverCompatible: true)
castOptions.senderDeviceName = "CastVideos (terminal)"
let logger = CastLogger()
logger.filter = CastLogFilter(minimumLevel: settings.castLogLevel)
logger.sink = FileLogSink(path: options.logPath ?? configDirectory.appendingPathComponent("castvideos.log").path)
castOptions.logger = logger
try? CastContext.setSharedInstance(with: castOptions)
let context = CastContext.sharedInstance

let terminal = TerminalApp()
let model = AppModel(
    terminal: terminal,
    context: context,
    options: options,
    configDirectory: configDirectory,
    settings: settings,
    styles: styles
)
if let settingsProblem { model.toast(settingsProblem) }
model.start()

var virtualDevice: BuiltInVirtualDevice?
let deviceTask = Task { @MainActor in
    guard options.virtualDevice else { return }
    do {
        let device = try await BuiltInVirtualDevice.start(
            logPath: options.virtualDeviceLogPath,
            faults: options.virtualDeviceFaults
        )
        virtualDevice = device
        // Adding a known host confirms it over a Cast connection; on a busy machine the first
        // confirmation can time out, so it is tried again before giving up.
        var attempt = 1
        while true {
            do {
                // Named from its setup document on port 8008, as any device added by address.
                try await context.discoveryManager.addDevice(host: device.address, port: device.castPort)
                break
            } catch  where attempt < 3 && !Task.isCancelled {
                attempt += 1
            }
        }
        model.refreshDevices()
        terminal.requestRender()
    } catch {
        model.toast("The virtual device could not start: \(error)", seconds: 8)
    }
}

var exitCode: Int32 = 0
do {
    try await terminal.run { buffer in
        model.render(into: &buffer)
    } handle: { event in
        if case .key(let key) = event { model.handle(key) }
    }
} catch {
    FileHandle.standardError.write(Data("castvideos: \(error)\n".utf8))
    exitCode = 1
}
model.shutdown()
deviceTask.cancel()
exit(exitCode)
