import CastCore
import CastEmulator
import CastNet
import Foundation

/// The virtual Cast device the app runs in-process so that casting works with no device on
/// the network. It listens only on a loopback address, its Cast channel on a port of its own
/// and its setup document on 8008 as real devices serve it, and is not advertised over mDNS:
/// the app adds it to discovery as a known host, which reads its name from there.
///
/// Like a real device, it outlives the app's sessions: it keeps its address and Cast port
/// from one run to the next, and when the app quits while casting, the running receiver app
/// and its media are kept in the configuration directory and started again (same session,
/// same position) at the next run, so the app's saved session is resumed there.
struct BuiltInVirtualDevice: Sendable {
    static let friendlyName = "Living Room TV (virtual)"
    /// Loopback addresses tried in turn.
    static let candidateAddresses = ["127.0.0.77", "127.0.0.78", "127.0.0.79", "127.0.0.1"]
    /// The file in the configuration directory holding the address, port and app state.
    static let stateFileName = "virtual-device.json"

    /// What is kept between runs.
    struct SavedState: Codable, Hashable {
        var address: String
        var castPort: Int
        var snapshot: VirtualDeviceSnapshot?
        /// The port of the app's media server (``BuiltInMediaServer``), when it ran.
        var mediaPort: Int?
    }

    let device: VirtualDevice
    let address: String
    let castPort: Int
    let stateURL: URL?
    let mediaPort: Int?

    /// The media server port saved by the previous run in `stateDirectory`, if any.
    static func savedMediaPort(in stateDirectory: URL) -> Int? {
        read(stateDirectory.appendingPathComponent(stateFileName))?.mediaPort
    }

    /// Starts the device, on the address and port of the previous run when they are free.
    /// - Parameters:
    ///   - logPath: a file the device appends its frame log to, as JSON lines.
    ///   - faults: misbehaviours to switch on.
    ///   - stateDirectory: where ``stateFileName`` is kept; `nil` keeps nothing.
    ///   - addresses: the loopback addresses tried in turn, ``candidateAddresses`` unless
    ///     given.
    ///   - mediaPort: the port of the app's media server, kept for the next run; when
    ///     given, the device reads the media it is asked to play (``MediaMode/fetch``), as
    ///     hardware does, else it plays every item simulated.
    ///   - textChannel: its media receiver also answers on the codelab's text channel
    ///     (``ReceiverAppDefinition/mediaReceiverWithTextChannel``), for the custom-channel
    ///     screen.
    /// - Throws: what the last failed attempt to listen threw.
    static func start(
        logPath: String?,
        faults: [VirtualDeviceFault] = [],
        stateDirectory: URL? = nil,
        addresses: [String] = candidateAddresses,
        mediaPort: Int? = nil,
        textChannel: Bool = false
    ) async throws -> BuiltInVirtualDevice {
        let log = try logPath.map { try JSONLinesFrameLog(path: $0) }
        let identity = DeviceIdentity(
            friendlyName: friendlyName,
            deviceID: "5c0ffee0cafe4a11b0a7d00d1e5e7001",
            modelName: "Virtual TV"
        )
        var configuration = VirtualDeviceConfiguration(identity: identity, bufferingDelay: .milliseconds(300))
        configuration.mediaMode = mediaPort == nil ? .simulate : .fetch
        if textChannel {
            configuration.applications = configuration.applications.map { application in
                application.appID == ReceiverAppDefinition.defaultMediaReceiver.appID
                    ? .mediaReceiverWithTextChannel : application
            }
        }
        let stateURL = stateDirectory?.appendingPathComponent(stateFileName)
        let saved = stateURL.flatMap(Self.read)
        var attempts = addresses.map { ($0, 0) }
        if let saved, addresses.contains(saved.address), (1...65_535).contains(saved.castPort) {
            attempts.insert((saved.address, saved.castPort), at: 0)
        }
        var lastError: (any Error)?
        for (address, port) in attempts {
            var options = DeviceServerOptions(address: address)
            options.castPort = port
            options.httpsPort = 0
            let device = VirtualDevice(configuration: configuration, options: options, log: log)
            var deviceFaults = DeviceFaults()
            deviceFaults.launchRefusal = faults.contains(.refuseLaunch) ? .notAllowed : nil
            deviceFaults.failsNextLoad = faults.contains(.failNextLoad)
            device.faults = deviceFaults
            // The receiver app kept at the last quit runs again, where it was, on the saved
            // address and port only (where the saved session looks for it). It is restored
            // before the device listens: the app's own session, resuming as soon as the port
            // answers, must never see an idle device and give up.
            let snapshot = port != 0 && saved?.address == address && saved?.castPort == port ? saved?.snapshot : nil
            do {
                let ports = try await device.start(restoring: snapshot)
                let started = BuiltInVirtualDevice(
                    device: device,
                    address: address,
                    castPort: ports.cast,
                    stateURL: stateURL,
                    mediaPort: mediaPort
                )
                started.write(SavedState(address: address, castPort: ports.cast, snapshot: nil, mediaPort: mediaPort))
                return started
            } catch {
                lastError = error
            }
        }
        throw lastError ?? CocoaError(.featureUnsupported)
    }

    /// Keeps the address, the port and the running receiver app for the next run.
    func saveState() async {
        write(SavedState(address: address, castPort: castPort, snapshot: device.snapshot(), mediaPort: mediaPort))
    }

    func stop() async {
        await device.stop()
    }

    private func write(_ state: SavedState) {
        guard let stateURL, let data = try? JSONEncoder().encode(state) else { return }
        try? FileManager.default.createDirectory(
            at: stateURL.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try? data.write(to: stateURL, options: .atomic)
    }

    private static func read(_ url: URL) -> SavedState? {
        guard let bytes = try? LocalFile.read(path: url.path, limit: 1 << 20) else { return nil }
        return try? JSONDecoder().decode(SavedState.self, from: Data(bytes))
    }
}
