// A queue built with the codelab's three choices (Play Now, Add to Queue, Play Next) and a
// custom channel to the receiver app, against the first Cast device discovery finds.
//
//     swift run queue-and-channel [--app APPID] [--interface IF] [--trust-root FILE]
//
// The receiver app (4F8B3483 unless --app says otherwise) must handle media and the
// namespace urn:x-cast:com.example.text; Examples/QueueAndChannel/emulator.json describes such
// a device for cast-emulator, whose app echoes each text message back.

import CastSender
import Foundation

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

/// The codelab's text channel: a `CastChannel` subclass whose events arrive on a stream.
/// (`CastChannel` is an open class, so a subclass restates `@unchecked Sendable`; this one's
/// only state is a stream and its continuation, both Sendable.)
final class TextChannel: CastChannel, @unchecked Sendable {
    enum Event: Sendable {
        case connected
        case reply(String)
    }

    let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation

    init() throws {
        (events, continuation) = AsyncStream.makeStream()
        try super.init(namespace: "urn:x-cast:com.example.text")
    }

    override func didConnect() { continuation.yield(.connected) }

    override func didReceiveTextMessage(_ message: String) { continuation.yield(.reply(message)) }
}

/// An item of the queue, titled.
func item(_ title: String) -> QueueItem {
    var metadata = MediaMetadata(metadataType: .generic)
    metadata.title = title
    let slug = title.lowercased()
    return QueueItem(
        media: MediaInformation(
            contentID: "https://media.example.invalid/\(slug).mp4",
            streamType: .buffered,
            contentType: "video/mp4",
            metadata: metadata
        ),
        autoplay: true
    )
}

/// The titles of the queue once it holds `count` items, each fetched.
func titles(of queue: MediaQueue, count: Int) async throws -> [String] {
    try await within(10, "the queue of \(count) items") {
        // The stream starts with the queue as it is now, then follows every change.
        for await snapshot in queue.observeQueue() where snapshot.itemIDs.count == count {
            let titles = snapshot.itemIDs.indices.map { snapshot.item(at: $0)?.media?.metadata?.title }
            if titles.allSatisfy({ $0 != nil }) { return titles.compactMap { $0 } }
            // Items not cached yet: ask for them; they arrive as a later snapshot.
            for index in snapshot.itemIDs.indices where titles[index] == nil { _ = queue.item(at: index) }
        }
        throw ExampleError("the queue went away")
    }
}

do {
    var appID = "4F8B3483"
    var interfaces: [String] = []
    var options = CastOptions(receiverApplicationID: appID)
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
        guard let value = arguments.popFirst() else { throw ExampleError("\(argument) needs a value") }
        switch argument {
        case "--app": appID = value
        case "--interface": interfaces.append(value)
        case "--trust-root":
            options.deviceAuthentication.additionalTrustAnchors += try TrustRootFile.certificates(atPath: value)
        default: throw ExampleError("unknown option \(argument)")
        }
    }
    options.discoveryCriteria = DiscoveryCriteria(applicationID: appID)
    options.discoveryInterfaces = interfaces.isEmpty ? nil : interfaces
    options.disableDiscoveryAutostart = true
    let context = CastContext(options: options)

    try context.discoveryManager.startDiscovery()
    let device = try await within(10, "discovery") {
        for await devices in context.discoveryManager.observeDevices() {
            if let first = devices.first { return first }
        }
        throw ExampleError("discovery ended")
    }
    let session = try await context.sessionManager.startSession(with: device)
    // A channel may be added at any time; it connects once the app declares its namespace.
    let channel = try TextChannel()
    session.add(channel)
    let client = session.remoteMediaClient
    let queue = client.mediaQueue

    // Play Now: the item plays at once, in a queue of its own.
    try await client.queueLoad([item("Intro")]).result
    // Add to Queue: at the end.
    try await client.queueInsertItem(item("Second")).result
    try await client.queueInsertItem(item("Third")).result
    print("queue: " + (try await titles(of: queue, count: 3)).joined(separator: ", "))

    // Play Next: right after the item playing now.
    guard let current = client.mediaStatus?.currentItemID, let index = queue.index(ofItemID: current),
        let next = queue.itemID(at: index + 1)
    else { throw ExampleError("no current item") }
    try await client.queueInsertItem(item("Fourth"), beforeItemID: next).result
    print("queue: " + (try await titles(of: queue, count: 4)).joined(separator: ", "))

    // The custom channel: once connected, a message to the receiver app, and its reply.
    let reply = try await within(10, "the channel") {
        for await event in channel.events {
            switch event {
            case .connected: try channel.sendTextMessage(#"{"text":"hello from the sender"}"#)
            case .reply(let text): return text
            }
        }
        throw ExampleError("the channel closed")
    }
    print("reply: \(reply)")

    await context.sessionManager.endSession(stopCasting: true)
    print("done")
} catch {
    FileHandle.standardError.write(Data("queue-and-channel: \(error)\n".utf8))
    exit(1)
}
