package import CastArguments
import CastAuth
package import CastCore
import CastCrypto
import CastNet
package import CastSender

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a running command works with: the environment, output, paths, the chosen device and
/// the SDK context, and the steps to reach a session.
package final class CommandRuntime: Sendable {
    /// The process environment (or a test's).
    package let environment: [String: String]
    /// Where output goes.
    package let output: OutputSink
    /// The global options (`--device`, `--interface`).
    package let globals: ParsedArguments
    /// Configuration and state file locations.
    package let paths: CommandPaths
    /// The configuration file's settings.
    package let configuration: CommandConfiguration
    /// The SDK context (no discovery until asked, no automatic session resume).
    package let context: CastContext

    /// Creates a runtime.
    /// - Throws: ``CommandLineError`` when the configuration file is malformed.
    package init(globals: ParsedArguments, environment: [String: String], output: OutputSink) throws(CommandLineError) {
        self.environment = environment
        self.output = output
        self.globals = globals
        paths = CommandPaths(environment: environment)
        configuration = try CommandConfiguration(contentsOf: paths.configFile)
        var options = CastOptions(receiverApplicationID: DiscoveryCriteria.defaultMediaReceiverApplicationID)
        // Discovery interfaces: `--interface`, else `CAST_DISCOVERY_INTERFACES`, else the
        // configuration file, else every multicast-capable one.
        let named = (globals.values["interface"] ?? []).flatMap(NetworkInterface.names(fromList:))
        let fromEnvironment = NetworkInterface.names(fromList: environment["CAST_DISCOVERY_INTERFACES"] ?? "")
        options.discoveryInterfaces =
            [named, fromEnvironment, configuration.interfaces].first { !$0.isEmpty }

        options.disableDiscoveryAutostart = true
        options.resumesSavedSession = false
        options.sessionStoreURL = paths.sessionFile
        options.userAgent = "cast/\(CastCommandLine.version)"
        options.logger = CastLogger()
        options.requestTimeout = try Self.timeout(environment, "CAST_REQUEST_TIMEOUT") ?? .seconds(10)
        options.launchTimeout = try Self.timeout(environment, "CAST_LAUNCH_TIMEOUT") ?? .seconds(30)
        options.deviceAuthentication.additionalTrustAnchors += try Self.trustRoots(globals, environment)
        if try Self.insecure(globals, environment) {
            options.deviceAuthentication.mode = .off
            options.sendsSecretsToUnauthenticatedDevices = true
            output.error(Self.insecureWarning)
        }
        context = CastContext(options: options)
    }

    /// What `--insecure` / `CAST_INSECURE=1` prints to standard error.
    package static let insecureWarning =
        "cast: warning: --insecure: Cast devices are not authenticated; anything on the network can pose as "
        + "the device and receive the media URLs and credentials sent to it"

    /// The extra device roots: every `--trust-root FILE`, else the `:`-separated files of
    /// `CAST_TRUST_ROOTS`.
    /// - Throws: ``CommandLineError`` (`invalidValue`, a usage error) naming the file and the
    ///   option or variable that named it, when a file is missing, unreadable or holds no
    ///   valid PEM certificate.
    static func trustRoots(
        _ globals: ParsedArguments,
        _ environment: [String: String]
    ) throws(CommandLineError) -> [Certificate] {
        let given = globals.values["trust-root"] ?? []
        let (source, paths) =
            given.isEmpty
            ? ("CAST_TRUST_ROOTS", TrustRootFile.paths(fromList: environment["CAST_TRUST_ROOTS"] ?? ""))
            : ("--trust-root", given)
        var roots: [Certificate] = []
        for path in paths {
            do {
                roots += try TrustRootFile.certificates(atPath: path)
            } catch {
                throw CommandLineError(.invalidValue, "\(source) \(path): \(error.reason)")
            }
        }
        return roots
    }

    /// Whether `--insecure` or `CAST_INSECURE=1` turns device authentication off.
    /// - Throws: ``CommandLineError`` (`invalidValue`) when `CAST_INSECURE` is neither `1`
    ///   nor `0` (nor empty).
    static func insecure(_ globals: ParsedArguments, _ environment: [String: String]) throws(CommandLineError) -> Bool {
        if globals.has("insecure") { return true }
        switch environment["CAST_INSECURE"] ?? "" {
        case "", "0": return false
        case "1": return true
        case let text:
            throw CommandLineError(.invalidValue, "CAST_INSECURE must be 1 or 0, not '\(text)'")
        }
    }

    /// The longest timeout an environment variable may set, in seconds (one day).
    package static let maximumTimeoutSeconds: Double = 86_400

    /// A timeout from an environment variable: a number of seconds greater than 0 and at
    /// most ``maximumTimeoutSeconds``; `nil` when unset or empty.
    /// - Throws: ``CommandLineError`` (`invalidValue`) for anything else (`inf`, `1e20`, `-1`).
    static func timeout(_ environment: [String: String], _ name: String) throws(CommandLineError) -> Duration? {
        guard let text = environment[name], !text.isEmpty else { return nil }
        guard let seconds = Double(text), seconds > 0, seconds <= maximumTimeoutSeconds else {
            throw CommandLineError(
                .invalidValue,
                "\(name) must be a number of seconds greater than 0 and at most \(Int(maximumTimeoutSeconds)), not '\(text)'"
            )
        }
        return WireNumber.duration(seconds: seconds)
    }

    // MARK: Choosing a device

    /// The device named by `-d`, else `CAST_DEVICE`, else the configuration file.
    package var target: DeviceTarget? {
        let text = globals.value("device") ?? environment["CAST_DEVICE"] ?? configuration.device
        return text.flatMap { $0.isEmpty ? nil : DeviceTarget($0) }
    }

    /// Runs discovery for up to `timeout`, returning early once `done` holds.
    package func discover(
        timeout: Duration,
        until done: @escaping @Sendable ([CastDevice]) -> Bool = { _ in false }
    ) async throws -> [CastDevice] {
        let manager = context.discoveryManager
        let events = manager.events()
        do {
            try manager.startDiscovery()
        } catch {
            if let cause = error.underlying as? UDPSocketError,
                cause.code == .noUsableInterface || cause.code == .unknownInterface
            {
                throw CommandLineError(
                    .noDevice,
                    "discovery failed: \(cause); choose interfaces with --interface NAME "
                        + "(--interface lo finds `cast-emulator --mdns` on this machine) or CAST_DISCOVERY_INTERFACES"
                )
            }
            throw CommandLineError(.noDevice, "discovery failed: \(error.reason)")
        }
        if !done(manager.devices) {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in events where done(manager.devices) { return }
                }
                group.addTask { try? await Task.sleep(for: timeout) }
                await group.next()
                group.cancelAll()
            }
        }
        return manager.devices
    }

    /// Finds the device to use and the address to reach it at.
    package func resolveDevice(
        timeout: Duration = .seconds(5)
    ) async throws -> (device: CastDevice, host: String, port: Int) {
        switch target {
        case .address(let host, let port):
            do {
                // The check's connection is kept for the session the command starts next.
                let device = try await context.discoveryManager.addDevice(
                    host: host,
                    port: port,
                    keepingConnectionFor: context.options.requestTimeout
                )
                return (device, host, port)
            } catch {
                throw CommandLineError(
                    .deviceNotFound,
                    "no Cast device answers at \(DeviceTarget.address(host: host, port: port)): \(error.reason)"
                )
            }
        case .name(let name):
            let wanted = name.lowercased()
            let matches: @Sendable (CastDevice) -> Bool = { ($0.friendlyName ?? "").lowercased().hasPrefix(wanted) }
            let devices = try await discover(timeout: timeout) { $0.contains(where: matches) }
            guard
                let device = devices.first(where: { ($0.friendlyName ?? "").lowercased() == wanted })
                    ?? devices.first(where: matches),
                let address = device.addresses.first
            else {
                throw CommandLineError(.deviceNotFound, "no device named '\(name)' found in \(Self.format(timeout))")
            }
            return (device, address.description, Int(device.port))
        case nil:
            let devices = try await discover(timeout: timeout)
            guard let device = devices.first, let address = device.addresses.first else {
                throw CommandLineError(
                    .noDevice,
                    "no device found; name one with -d NAME or -d HOST[:PORT], or set CAST_DEVICE"
                )
            }
            guard devices.count == 1 else {
                let names = devices.map { $0.friendlyName ?? $0.idText }.joined(separator: ", ")
                throw CommandLineError(.noDevice, "several devices found (\(names)); choose one with -d NAME")
            }
            return (device, address.description, Int(device.port))
        }
    }

    // MARK: Reaching a session

    /// The saved session, rejoined within `timeout`, or `nil` (a device that is gone
    /// costs one request timeout, not the SDK's whole reconnect schedule).
    private func resumeSavedSession(within timeout: Duration) async -> CastSession? {
        let manager = context.sessionManager
        return await withTaskGroup(of: CastSession?.self) { group in
            group.addTask { try? await manager.resumeSavedSession() }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            // Stops the task still under way (the attempt, or the timer when the attempt won),
            // so the group ends now rather than when the timer would have fired.
            group.cancelAll()
            if first == nil { await manager.endSession(stopCasting: false) }
            return first
        }
    }

    /// What to do about a device that failed authentication.
    static let trustHint =
        " (trust its root with --trust-root FILE: for a virtual device, the root.pem that cast-emulator names "
        + "at start, or one written by cast-emulator --auth-root-out FILE; or accept the device "
        + "unauthenticated with --insecure)"

    /// A session on the chosen device: the saved one when it is for this device (no new
    /// LAUNCH), else a new one that joins our receiver app if it runs.
    /// - Parameter launching: whether the receiver app may be launched; when `false` and
    ///   the device runs no app, this fails with ``CommandLineError/Code/nothingPlaying``.
    package func session(launching: Bool) async throws -> CastSession {
        let manager = context.sessionManager
        if let saved = SavedSessionSummary(contentsOf: paths.sessionFile), saved.matches(target),
            let session = await resumeSavedSession(within: context.options.requestTimeout)
        {
            return session
        }
        let (device, host, port) = try await resolveDevice()
        if !launching {
            let appID = context.options.receiverApplicationID
            let running: [String]
            do {
                let status = try await manager.receiverStatus(of: device, host: host, port: port)
                running = status.applications?.map(\.appID) ?? []
            } catch  where error.code == .deviceAuthentication {
                throw CommandLineError(
                    .requestFailed,
                    "cannot read the status of \(device.friendlyName ?? host): \(error.reason)" + Self.trustHint
                )
            } catch {
                running = []
            }
            guard running.contains(appID) else {
                throw CommandLineError(
                    .nothingPlaying,
                    "nothing is playing on \(device.friendlyName ?? host) (the media receiver is not running)"
                )
            }
        }
        do {
            return try await manager.startSession(with: device, host: host, port: port)
        } catch {
            let hint = error.code == .deviceAuthentication ? Self.trustHint : ""
            throw CommandLineError(
                .requestFailed,
                "cannot start a session on \(device.friendlyName ?? host): \(error.reason)\(hint)"
            )
        }
    }

    /// The media client of a joined session, with a fresh media status.
    package func mediaClient() async throws -> RemoteMediaClient {
        let client = try await session(launching: false).remoteMediaClient
        try await client.requestStatus().result
        return client
    }

    /// The media client with a media session, or ``CommandLineError/Code/nothingPlaying``.
    package func activeMedia() async throws -> (client: RemoteMediaClient, status: MediaStatus) {
        let client = try await mediaClient()
        guard let status = client.mediaStatus else {
            throw CommandLineError(.nothingPlaying, "nothing is playing")
        }
        return (client, status)
    }

    static func format(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

extension Error {
    /// A short reason: a ``CastError``'s reason, else the description.
    var reason: String {
        if let error = self as? CastError { return error.reason }
        return "\(self)"
    }
}
