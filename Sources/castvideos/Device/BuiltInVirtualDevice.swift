import CastCore
import CastEmulator
import Foundation

/// The virtual Cast device the app runs in-process so that casting works with no device on
/// the network. It listens only on a loopback address, its Cast channel on a port the system
/// picks and its setup document on 8008 as real devices serve it, and is not advertised over
/// mDNS: the app adds it to discovery as a known host, which reads its name from there.
struct BuiltInVirtualDevice: Sendable {
    static let friendlyName = "Living Room TV (virtual)"
    /// Loopback addresses tried in turn.
    static let candidateAddresses = ["127.0.0.77", "127.0.0.78", "127.0.0.79", "127.0.0.1"]

    let device: VirtualDevice
    let address: String
    let castPort: Int

    /// Starts the device.
    /// - Parameter logPath: a file the device appends its frame log to, as JSON lines.
    /// - Throws: what the last failed attempt to listen threw.
    static func start(logPath: String?, faults: [VirtualDeviceFault] = []) async throws -> BuiltInVirtualDevice {
        let log = try logPath.map { try JSONLinesFrameLog(path: $0) }
        let identity = DeviceIdentity(
            friendlyName: friendlyName,
            deviceID: "5c0ffee0cafe4a11b0a7d00d1e5e7001",
            modelName: "Virtual TV"
        )
        let configuration = VirtualDeviceConfiguration(identity: identity, bufferingDelay: .milliseconds(300))
        var lastError: (any Error)?
        for address in candidateAddresses {
            var options = DeviceServerOptions(address: address)
            options.castPort = 0
            options.httpsPort = 0
            let device = VirtualDevice(configuration: configuration, options: options, log: log)
            do {
                let ports = try await device.start()
                var deviceFaults = DeviceFaults()
                deviceFaults.launchRefusal = faults.contains(.refuseLaunch) ? .notAllowed : nil
                deviceFaults.failsNextLoad = faults.contains(.failNextLoad)
                device.faults = deviceFaults
                return BuiltInVirtualDevice(device: device, address: address, castPort: ports.cast)
            } catch {
                lastError = error
            }
        }
        throw lastError ?? CocoaError(.featureUnsupported)
    }

    func stop() async {
        await device.stop()
    }
}
