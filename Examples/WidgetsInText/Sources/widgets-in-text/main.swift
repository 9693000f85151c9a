// The Cast widgets' models bound to a view made of text lines: tap the Cast button, pick the
// first device in the chooser, play a video, watch the mini controller follow it.
//
//     swift run widgets-in-text URL [--interface IF] [--trust-root FILE]

import CastSender
import CastSenderUI
import Foundation
import Observation
import Synchronization

struct ExampleError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Resumes a continuation once, whichever of its callers comes first.
final class ResumeOnce: Sendable {
    private let continuation: Mutex<CheckedContinuation<Void, Never>?>
    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = Mutex(continuation) }
    func resume() { continuation.withLock { $0.take() }?.resume() }
}

/// Waits, at most `seconds`, until `condition` holds, re-checking whenever what it read changes.
func until(_ seconds: Int, _ what: String, _ condition: @escaping @Sendable () -> Bool) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            var met = false
            while !met {
                // Reads the condition under Observation and suspends until what it read changes,
                // unless it holds already.
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let once = ResumeOnce(continuation)
                    met = withObservationTracking(condition) { once.resume() }
                    if met { once.resume() }
                }
            }
        }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw ExampleError("\(what): not after \(seconds) s")
        }
        defer { group.cancelAll() }
        try await group.next()
    }
}

do {
    var url = ""
    var options = CastOptions(receiverApplicationID: DiscoveryCriteria.defaultMediaReceiverApplicationID)
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
        switch argument {
        case "--interface":
            guard let name = arguments.popFirst() else { throw ExampleError("--interface needs a name") }
            options.discoveryInterfaces = (options.discoveryInterfaces ?? []) + [name]
        case "--trust-root":
            guard let path = arguments.popFirst() else { throw ExampleError("--trust-root needs a file") }
            options.deviceAuthentication.additionalTrustAnchors += try TrustRootFile.certificates(atPath: path)
        default: url = argument
        }
    }
    guard !url.isEmpty else { throw ExampleError("usage: widgets-in-text URL [--interface IF] [--trust-root FILE]") }

    // Discovery starts on the first tap of the Cast button (the SDK's default).
    let context = CastContext(options: options)
    let button = CastButtonModel(context: context)
    let chooser = DeviceChooserModel(context: context)
    let mini = MiniControllerModel(context: context, mediaController: MediaController(context: context))
    let view = TextView(button: button, chooser: chooser, mini: mini)
    view.start()

    guard case .presentDeviceChooser = button.tap() else { throw ExampleError("the Cast button offered no chooser") }
    try await until(10, "a device in the chooser") { !chooser.state.devices.isEmpty }
    try await chooser.select(chooser.state.devices[0].id)
    try await until(10, "the connection") { button.state.buttonState == .connected }

    var metadata = MediaMetadata(metadataType: .movie)
    metadata.title = "A video"
    let media = MediaInformation(contentID: url, streamType: .buffered, contentType: "video/mp4", metadata: metadata)
    guard let session = context.sessionManager.currentSession else { throw ExampleError("no session") }
    try await session.remoteMediaClient.load(LoadRequestData(media: media, autoplay: true)).result
    try await until(10, "playback") { mini.state.isVisible && mini.state.playPause.action == .pause }

    await button.stopCasting(stopReceiverApplication: true)
    try await until(10, "the end of the session") { button.state.buttonState != .connected }
} catch {
    FileHandle.standardError.write(Data("widgets-in-text: \(error)\n".utf8))
    exit(1)
}
