// Finds a Cast device over mDNS, casts a video URL to it, follows its status until it plays,
// then ends the session. The codelab's first steps, in one file.
//
//     swift run cast-a-video URL [--device NAME] [--interface IF] [--trust-root FILE]

import CastSender
import Foundation

/// The command line: the URL, and where and whom to look for.
struct Arguments {
    var url = ""
    var deviceName: String?
    var interfaces: [String] = []
    var trustRoots: [String] = []

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--device": deviceName = try Self.value(of: argument, from: &rest)
            case "--interface": interfaces.append(try Self.value(of: argument, from: &rest))
            case "--trust-root": trustRoots.append(try Self.value(of: argument, from: &rest))
            default:
                guard !argument.hasPrefix("-"), url.isEmpty else { throw ExampleError("unknown option \(argument)") }
                url = argument
            }
        }
        guard !url.isEmpty else {
            throw ExampleError("usage: cast-a-video URL [--device NAME] [--interface IF] [--trust-root FILE]")
        }
    }

    private static func value(of option: String, from rest: inout ArraySlice<String>) throws -> String {
        guard let value = rest.popFirst() else { throw ExampleError("\(option) needs a value") }
        return value
    }
}

struct ExampleError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs `operation`, or throws once `seconds` have passed.
func within<T: Sendable>(
    _ seconds: Int,
    _ what: String,
    _ operation: @escaping @Sendable () async throws -> T
)
    async throws -> T
{
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw ExampleError("\(what): nothing after \(seconds) s")
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

do {
    let arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))

    // Step 1: the options, as GCKCastOptions: the receiver app, where to discover, whom to trust.
    var options = CastOptions(receiverApplicationID: DiscoveryCriteria.defaultMediaReceiverApplicationID)
    options.disableDiscoveryAutostart = true
    options.discoveryInterfaces = arguments.interfaces.isEmpty ? nil : arguments.interfaces
    for path in arguments.trustRoots {
        // A virtual device's root (cast-emulator prints where it is), besides Google's roots.
        options.deviceAuthentication.additionalTrustAnchors += try TrustRootFile.certificates(atPath: path)
    }
    let context = CastContext(options: options)

    // Step 2: discovery. The device list starts with what is known now, then every change.
    try context.discoveryManager.startDiscovery()
    let device = try await within(10, "discovery") {
        for await devices in context.discoveryManager.observeDevices() {
            if let found = devices.first(where: {
                arguments.deviceName == nil || $0.friendlyName == arguments.deviceName
            }) {
                return found
            }
        }
        throw ExampleError("discovery ended")
    }
    print("found \(device.friendlyName ?? "a device") at \(device.addresses.first?.description ?? "?"):\(device.port)")

    // Step 3: a session: TLS, device authentication, the receiver app launched.
    let session = try await context.sessionManager.startSession(with: device)
    print("session \(session.sessionID ?? "?") on \(device.friendlyName ?? "the device")")

    // Step 4: load the media and follow its status until it plays.
    var metadata = MediaMetadata(metadataType: .movie)
    metadata.title = "A video"
    let media = MediaInformation(
        contentID: arguments.url,
        streamType: .buffered,
        contentType: "video/mp4",
        metadata: metadata
    )
    let client = session.remoteMediaClient
    try await client.load(LoadRequestData(media: media, autoplay: true)).result
    try await within(20, "playback") {
        // The stream starts with the status as it is now: PLAYING may have arrived already.
        for await status in client.observeMediaStatus() {
            let state = status?.playerState.map { "\($0)" } ?? "no media"
            print("status: \(state), \(Int(client.approximateStreamPosition)) s")
            if status?.playerState == .playing { return }
        }
    }

    // Step 5: end the session and stop the receiver app.
    await context.sessionManager.endSession(stopCasting: true)
    print("done")
} catch {
    FileHandle.standardError.write(Data("cast-a-video: \(error)\n".utf8))
    exit(1)
}
