import CastCore
import CastCrypto
import CastNet
import CastSenderTestSupport
import CastSync
import CastTestSupport
import CastTime
import Dispatch
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender

/// A virtual device on an ephemeral port of 127.0.0.1 and a sender context pointed at it.
struct EndToEndRig {
    let device: VirtualDevice
    let log: FrameRecorder
    let ports: VirtualDevice.Ports
    let queue = DispatchQueue(label: "e2e-callbacks")

    /// One RSA key for every device of these tests (generating keys is slow).
    static let tlsKey: PrivateKey = {
        do {
            return try PrivateKey.generateRSA(bits: 2048)
        } catch {
            fatalError("cannot generate a test key: \(error)")
        }
    }()

    static func start(
        currentDate: @escaping @Sendable () -> Date = { Date() },
        engine wrap: (@Sendable (VirtualDeviceEngine) -> any HostedEngine)? = nil,
        configure: (inout VirtualDeviceConfiguration) -> Void = { _ in }
    ) async throws -> EndToEndRig {
        var configuration = VirtualDeviceConfiguration(
            identity: DeviceIdentity(friendlyName: "E2E Device", deviceID: "00112233445566778899aabbccddeeff")
        )
        configuration.bufferingDelay = .zero
        // The device closes a connection silent for its liveness timeout (20 s); a sender
        // starved of CPU by the whole suite on two cores can miss its 5 s pings that long.
        configuration.livenessTimeout = TestTiming.patience
        configure(&configuration)
        let log = FrameRecorder()
        // A slow (sanitized) run may take a while between connecting and sending.
        var options = DeviceServerOptions.ephemeral(address: "127.0.0.1")
        // The whole suite at once on two cores can take seconds over a TLS handshake; the
        // device's bound on it is not what these tests check.
        options.requestTimeout = TestTiming.scaled(.seconds(30))
        options.frameTimeout = options.frameTimeout.map(TestTiming.scaled)
        let device = VirtualDevice(
            configuration: configuration,
            options: options,
            clock: SystemCastClock(),
            log: log,
            advertiser: nil,
            certificateKey: tlsKey,
            currentDate: currentDate
        ) { [configuration] now -> any HostedEngine in
            // A misbehaving device: the virtual device's own engine behind `wrap`.
            let engine = VirtualDeviceEngine(configuration: configuration, at: now)
            return wrap?(engine) ?? engine
        }
        let ports = try await device.start()
        return EndToEndRig(device: device, log: log, ports: ports)
    }

    var target: CastDevice {
        CastDevice(
            id: UUID(),
            friendlyName: "E2E Device",
            addresses: [IPAddress("127.0.0.1")!],
            port: UInt16(ports.cast)
        )
    }

    func options(configure: (inout CastOptions) -> Void = { _ in }) -> CastOptions {
        var options = CastOptions(receiverApplicationID: DiscoveryCriteria.defaultMediaReceiverApplicationID)
        options.disableDiscoveryAutostart = true
        options.callbackQueue = queue
        options.trustVirtualDevices()
        // A loaded run can hold a reply or a heartbeat up for many seconds: a test that wants
        // shorter limits sets them in `configure`.
        options.requestTimeout = TestTiming.patience
        options.heartbeatTimeout = TestTiming.patience
        options.deviceAuthenticationTimeout = TestTiming.patience
        configure(&options)
        return options
    }

    /// The device's media status now, from its engine.
    var deviceMedia: MediaStatus? {
        device.engineSnapshot?.mediaStatus(at: device.engineNow)
    }

    /// The device's media queue now, from its engine (status messages list items only for
    /// queues of two or more).
    var deviceQueue: [QueueItem]? {
        device.engineSnapshot?.application?.player?.session?.queue?.items
    }

    /// Waits until the callback queue has run everything queued so far.
    func drain() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }
}
