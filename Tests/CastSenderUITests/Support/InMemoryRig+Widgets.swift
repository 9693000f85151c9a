import CastCore
import CastSenderTestSupport
import CastSync
import Foundation

@testable import CastEmulator
@testable import CastSender
@testable import CastSenderUI

/// What the widget tests add to the shared ``InMemoryRig``: the context on the rig's connector
/// and clock, and the device's state read from its engine.
extension InMemoryRig {
    /// A rig whose device runs the engine `wrap` makes around the virtual device's own (one
    /// that rewrites what the device sends, for instance).
    static func wrapping(
        name: String = "Memory Device",
        configure: (inout VirtualDeviceConfiguration) -> Void = { _ in },
        engine wrap: @escaping @Sendable (VirtualDeviceEngine) -> any HostedEngine
    ) -> InMemoryRig {
        let configuration = InMemoryRig.configuration(name: name, configure: configure)
        return InMemoryRig { clock, log in
            VirtualDevice(
                configuration: configuration,
                options: InMemoryRig.serverOptions,
                clock: clock,
                log: log,
                advertiser: nil,
                certificateKey: nil
            ) { now in wrap(VirtualDeviceEngine(configuration: configuration, at: now)) }
        }
    }

    /// A device for the widgets: named "Widget TV", media playing as soon as it loads.
    static func widgets(configure: (inout VirtualDeviceConfiguration) -> Void = { _ in }) -> InMemoryRig {
        InMemoryRig(name: "Widget TV") { configuration in
            configuration.bufferingDelay = .zero
            configure(&configuration)
        }
    }

    /// A context on the rig's connector and clock; discovery never starts (tests add the
    /// device by address).
    func context(configure: (inout CastOptions) -> Void = { _ in }) -> CastContext {
        CastContext(options: options(configure: configure), connector: connector, clock: clock, browser: nil)
    }

    /// A context whose setup documents (what a device added by address is asked for its name
    /// and groups) are those `devices` serve on their addresses, read from the devices
    /// themselves (the HTTP route's own document, without the HTTP).
    func context(setupDocumentsOf devices: [VirtualDevice]) -> CastContext {
        let setupInfo = DeviceSetupInfoSource { host, _ in
            guard let device = devices.first(where: { $0.options.address == host }) else { return nil }
            let info = EurekaInfo(
                identity: device.configuration.identity,
                options: device.options,
                uptime: device.uptime,
                profile: device.configuration.profile,
                groups: device.engineSnapshot?.castingGroups ?? []
            )
            return try? DeviceSetupInfo(jsonBytes: info.bytes)
        }
        return CastContext(
            options: options(),
            connector: connector,
            clock: clock,
            browser: nil,
            setupInfo: setupInfo
        )
    }

    var engine: VirtualDeviceEngine? { device.engineSnapshot }

    /// The device's media status now, from its engine.
    var media: MediaStatus? { engine?.mediaStatus(at: device.engineNow) }
}

/// The media the widget tests load: a movie, plus tracks, an image and metadata the widgets
/// show.
enum WidgetMedia {
    static func movie(imageURL: String? = nil, adBreak: Bool = false) -> MediaInformation {
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
}

/// Image bytes by URL path, in memory, counting the fetches: the widgets' artwork without a
/// server (the HTTP fetcher itself is tested against a loopback server in
/// `DiskImageCacheTests`).
final class InMemoryImageFetcher: ImageFetcher {
    private let images: [String: [UInt8]]
    private let fetches = Locked<[String: Int]>([:])

    /// Serves `images` by path (e.g. `/poster.png`); other paths are not found.
    init(_ images: [String: [UInt8]]) {
        self.images = images
    }

    func url(_ path: String) -> String { "http://images.invalid\(path)" }

    func fetch(_ url: URL) async throws(ImageCacheError) -> [UInt8] {
        fetches.withLock { $0[url.path, default: 0] += 1 }
        guard let bytes = images[url.path] else { throw ImageCacheError(.httpStatus, url: url.absoluteString, "404") }
        return bytes
    }

    /// How many times `path` was fetched.
    func fetches(_ path: String) -> Int { fetches.withLock { $0[path] ?? 0 } }
}
