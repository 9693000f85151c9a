import CastArguments
import CastAuth
import CastEmulator
import CastSender
import CastSenderUI
import Foundation
import TerminalUI

let environment = ProcessInfo.processInfo.environment
let options: CommandLineOptions
do {
    options = try CommandLineOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("\(error.report)\n".utf8))
    exit(UsageError.exitStatus)
}
if options.showHelp {
    print(CommandLineOptions.usage, terminator: "")
    exit(0)
}
// The cache: downloaded images, and the built-in catalog's media made by the app; it honours
// XDG_CACHE_HOME, as the rest of the app's files honour theirs.
let cacheBase = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
let imageCacheDirectory = DiskImageCache.defaultDirectory(appName: "castvideos", base: cacheBase)
let mediaCacheDirectory = imageCacheDirectory.deletingLastPathComponent().appendingPathComponent("media")
if options.makeMedia {
    exit(await MediaMaker.makeFromCommandLine(cacheDirectory: mediaCacheDirectory))
}

let configDirectory = options.configDirectoryURL(environment: environment)
let (settings, settingsProblem) = SettingsStore(directory: configDirectory).load()

// Step 11: the theme goes through the widgets' style API.
var styles = AppStyles()
if let themePath = options.themePath {
    do {
        try CastStyle.shared.loadTheme(from: URL(fileURLWithPath: themePath))
    } catch {
        ConsoleOutput.error("theme \(themePath): \(error)")
        exit(2)
    }
    styles.apply(CastStyle.shared)
}

// Step 5 of the codelab: the context, early, with the receiver app and logging.
var castOptions = CastOptions(receiverApplicationID: settings.receiverApplicationID)
castOptions.physicalVolumeButtonsWillControlDeviceVolume = true
castOptions.launchOptions = LaunchOptions(androidReceiverCompatible: true)
castOptions.senderDeviceName = "CastVideos (terminal)"
// Discovery runs on the interfaces of the environment variable, else on those of the settings.
castOptions.discoveryInterfaces =
    environment["CAST_DISCOVERY_INTERFACES"].flatMap(AppSettings.interfaceNames(fromList:)) ?? settings.interfaceNames
// The image cache honours XDG_CACHE_HOME, as the rest of the app's files honour theirs.
castOptions.cacheDirectory = environment["XDG_CACHE_HOME"].flatMap {
    $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil
}
// Devices must authenticate against Google's roots (the SDK's default) or the roots the user
// added; the built-in virtual device signs with this process's root, trusted in process.
for path in options.trustRootFiles(environment: environment) {
    do {
        castOptions.deviceAuthentication.additionalTrustAnchors += try TrustRootFile.certificates(atPath: path)
    } catch {
        ConsoleOutput.error("trust root \(error)")
        exit(2)
    }
}
if options.virtualDevice {
    castOptions.deviceAuthentication = castOptions.deviceAuthentication.trustingVirtualDevices()
}
// A session survives a restart of the app: the next launch rejoins it.
castOptions.sessionStoreURL = configDirectory.appendingPathComponent("session.json")
let logger = CastLogger()
logger.filter = settings.logFilter
var logProblem: String?
let logURL = URL(fileURLWithPath: options.logPath ?? configDirectory.appendingPathComponent("castvideos.log").path)
do {
    logger.sink = try CastFileLogSink(url: logURL, maximumFileSize: 1 << 20, maximumFileCount: 3)
} catch {
    logProblem = "Logging is off: \(error.reason)"
}
castOptions.logger = logger
try? CastContext.setSharedInstance(with: castOptions)
let context = CastContext.sharedInstance
// Step 9: the default expanded controller comes up after a load.
context.useDefaultExpandedMediaControls = true
// The widgets' images: the picker of the settings (best-sized by default), cached in the
// user's cache directory.
context.imagePicker = settings.imagePickerChoice.picker
context.imageCache = DiskImageCache(directory: imageCacheDirectory)

let terminal = TerminalApp(configuration: TerminalApp.Configuration(graphics: options.pictures.graphicsChoice))
let model = AppModel(
    terminal: terminal,
    context: context,
    options: options,
    configDirectory: configDirectory,
    settings: settings,
    styles: styles
)
// The built-in catalog's pictures, videos, ad clips, live stream and captions, served by the
// app: its screens show the pictures and its built-in device reads real files (on the port of
// the last run, which a saved session's media names).
let mediaServer: BuiltInMediaServer? = {
    guard options.catalog == .builtIn, let catalog = try? Catalog(json: Array(BuiltInCatalog.json.utf8)) else {
        return nil
    }
    do {
        return try BuiltInMediaServer(
            catalog: catalog,
            cacheDirectory: mediaCacheDirectory,
            preferredPort: BuiltInVirtualDevice.savedMediaPort(in: configDirectory)
        )
    } catch {
        model.toast(
            "The built-in media server could not start: \(error); the virtual device simulates playback",
            seconds: 8
        )
        return nil
    }
}()
model.catalogScreen.builtInMediaBase = mediaServer?.baseURL
if let settingsProblem { model.toast(settingsProblem) }
if let logProblem { model.toast(logProblem, seconds: 8) }
model.start()
if let mediaServer { model.catalogScreen.makeBuiltInMedia(MediaMaker(library: mediaServer.library)) }

var virtualDevice: BuiltInVirtualDevice?
let deviceTask = Task { @MainActor in
    guard options.virtualDevice else { return }
    do {
        let device = try await BuiltInVirtualDevice.start(
            logPath: options.virtualDeviceLogPath,
            faults: options.virtualDeviceFaults,
            stateDirectory: configDirectory,
            mediaPort: mediaServer?.port,
            textChannel: true
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
        guard case .key(let key) = event else { return }
        // Ctrl-Z: the app goes to the background (the shell), `fg` brings it back.
        if key == .control("z") {
            await model.suspendToShell()
        } else {
            model.handle(key)
        }
    }
} catch {
    ConsoleOutput.error("\(error)")
    exitCode = 1
}
// Quitting: the session is left running on the device (and rejoined at the next launch),
// or ended when the options say ending stops the receiver app.
await context.applicationWillTerminate()
model.shutdown()
deviceTask.cancel()
await virtualDevice?.saveState()
await mediaServer?.stop()
exit(exitCode)
