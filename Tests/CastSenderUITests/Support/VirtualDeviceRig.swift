import CastCore
import CastCrypto
import CastNet
import CastNetCore
import CastSenderTestSupport
import CastSync
import CastTestSupport
import Dispatch
import Foundation

@testable import CastEmulator
@testable import CastSender
@testable import CastSenderUI

/// The widgets against the in-process virtual device over real TLS on loopback: a device on
/// an ephemeral port of 127.0.0.1, a context pointed at it, and helpers that read the
/// device's own engine.
struct VirtualDeviceRig {
    let device: VirtualDevice
    let ports: VirtualDevice.Ports
    let queue = DispatchQueue(label: "ui-virtual-device-callbacks")

    /// The media the widget tests load: the one the SDK's end-to-end tests use, plus tracks,
    /// an image and metadata the widgets show.
    static func media(imageURL: String? = nil, adBreak: Bool = false) -> MediaInformation {
        var metadata = MediaMetadata(metadataType: .movie)
        metadata.title = "Big Buck Bunny"
        metadata.studio = "Blender Foundation"
        if let imageURL { metadata.images = [MediaImage(url: imageURL, width: 8, height: 4)] }
        var media = MediaInformation(
            contentID: "http://127.0.0.1:9/big-buck-bunny.mp4",
            streamType: .buffered,
            contentType: "video/mp4",
            metadata: metadata,
            duration: 600,
            tracks: [
                MediaTrack(
                    trackID: 1,
                    type: .text,
                    trackContentID: "http://127.0.0.1:9/en.vtt",
                    name: "English",
                    language: "en"
                ),
                MediaTrack(
                    trackID: 2,
                    type: .text,
                    trackContentID: "http://127.0.0.1:9/fr.vtt",
                    name: "Français",
                    language: "fr"
                ),
                MediaTrack(trackID: 3, type: .audio, name: "Stereo", language: "en"),
                MediaTrack(trackID: 4, type: .audio, name: "Commentary", language: "en"),
            ]
        )
        if adBreak {
            media.breakClips = [
                AdBreakClip(id: "clip-1", duration: 30, title: "A word from our sponsor", whenSkippable: 0)
            ]
            media.breaks = [AdBreak(id: "pre", position: 0, breakClipIDs: ["clip-1"])]
        }
        return media
    }

    static func start(configure: (inout VirtualDeviceConfiguration) -> Void = { _ in }) async throws -> VirtualDeviceRig
    {
        var configuration = VirtualDeviceConfiguration(
            identity: DeviceIdentity(friendlyName: "Widget TV", deviceID: "0a1b2c3d4e5f60718293a4b5c6d7e8f9")
        )
        configuration.bufferingDelay = .zero
        // The device closes a connection silent for its liveness timeout (20 s); a sender
        // starved of CPU by the whole suite on two cores can miss its 5 s pings that long.
        configuration.livenessTimeout = TestTiming.patience
        configure(&configuration)
        var options = DeviceServerOptions.ephemeral(address: "127.0.0.1")
        // A loaded run can hold a request up for many seconds: the patience, not 10 s.
        options.requestTimeout = TestTiming.patience
        // A loaded machine (the whole suite at once on two cores) can take seconds over a TLS
        // handshake; the device's bound on it is not what these tests check.
        options.requestTimeout = TestTiming.scaled(.seconds(30))
        options.frameTimeout = options.frameTimeout.map(TestTiming.scaled)
        let device = VirtualDevice(configuration: configuration, options: options, certificateKey: Self.tlsKey)
        let ports = try await device.start()
        return VirtualDeviceRig(device: device, ports: ports)
    }

    /// One RSA key for every device of these tests (generating keys is slow).
    static let tlsKey: PrivateKey = {
        do {
            return try PrivateKey.generateRSA(bits: 2048)
        } catch {
            fatalError("cannot generate a test key: \(error)")
        }
    }()

    /// A context for the device: discovery never starts (tests add the device by address).
    func context(configure: (inout CastOptions) -> Void = { _ in }) -> CastContext {
        var options = CastOptions(receiverApplicationID: DiscoveryCriteria.defaultMediaReceiverApplicationID)
        options.disableDiscoveryAutostart = true
        options.callbackQueue = queue
        // A loaded machine (the whole suite at once on two cores) can take seconds over a TLS
        // handshake; the device's bound on it is not what these tests check.
        options.requestTimeout = TestTiming.scaled(.seconds(30))
        options.trustVirtualDevices()
        configure(&options)
        return CastContext(options: options)
    }

    var target: CastDevice {
        CastDevice(
            id: UUID(),
            friendlyName: "Widget TV",
            addresses: [IPAddress("127.0.0.1")!],
            port: UInt16(ports.cast)
        )
    }

    var engine: VirtualDeviceEngine? { device.engineSnapshot }

    /// The device's media status now, from its engine.
    var media: MediaStatus? { engine?.mediaStatus(at: device.engineNow) }

    /// Waits until the callback queue has run everything queued so far.
    func drain() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }

    /// Waits, for at most `timeout` of real time (times the run's slowdown), until `condition`
    /// holds. The SDK's and the device's state move with frames over real sockets that
    /// nothing in the test sees arrive, so the condition is polled (``pollUntil``).
    func eventually(timeout: Duration = .seconds(60), _ condition: @escaping @Sendable () -> Bool) async -> Bool {
        (try? await pollUntil("the state over real sockets", within: timeout, condition)) != nil
    }
}
