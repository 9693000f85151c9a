import CastSenderNotifications
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastSender

/// What one `NotificationCenter` observer received from one context: each notification's name
/// and the cast state of its `userInfo`, as a stream and as a list.
private final class NotificationLog: Sendable {
    struct Posted: Sendable, Equatable {
        var name: String
        var state: CastState?
    }

    let stream: AsyncStream<Posted>
    private let continuation: AsyncStream<Posted>.Continuation
    private let posted = Locked<[Posted]>([])
    // The observer's token; NotificationCenter's tokens are not Sendable, and this one is only
    // handed back to the center that gave it.
    private nonisolated(unsafe) var token: (any NSObjectProtocol)?

    /// Observes `name` (every name when nil) posted with `context` as the object.
    init(_ name: Notification.Name?, from context: CastContext) {
        (stream, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        token = NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) {
            [posted, continuation] notification in
            let entry = Posted(
                name: notification.name.rawValue,
                state: notification.userInfo?[CastState.notificationKey] as? CastState
            )
            posted.withLock { $0.append(entry) }
            continuation.yield(entry)
        }
    }

    deinit {
        if let token { NotificationCenter.default.removeObserver(token) }
        continuation.finish()
    }

    var all: [Posted] { posted.withLock { $0 } }

    /// The next notification, or nil after the hang guard.
    func next() async -> Posted? { await firstEvent(in: stream, timeout: TestTiming.hangGuard) { _ in true } }
}

/// The notifications of Google's SDK, posted by `CastSenderNotifications` through the hook of
/// `CastSender` once an app names one. Serialized: both tests set the process's one poster.
@Suite(.serialized) struct ContextNotificationTests {
    @Test func aContextCreatedBeforeANameIsReadPostsOnceOneIs() async throws {
        CastContext.removeAnnouncementPoster()
        let harness = Harness()
        let context = harness.context(harness.options())
        let everything = NotificationLog(nil, from: context)
        let triggers = context.expandedMediaControlsTriggers()

        // No name read yet: the SDK announces its events through its streams only.
        let device = try await context.discoveryManager.addDevice(host: "127.0.0.1", port: 8009, friendlyName: "Fake")
        context.presentDefaultExpandedMediaControls()
        #expect(await firstEvent(in: triggers, timeout: TestTiming.hangGuard) { true } != nil)
        await harness.drain()
        #expect(context.castState == .notConnected)
        #expect(everything.all.isEmpty, "posted before any notification's name was read: \(everything.all)")

        // Naming the notifications (as observing them does) makes the existing context post them.
        let states = NotificationLog(CastState.didChangeNotification, from: context)
        let expanded = NotificationLog(CastContext.expandedMediaControlsTriggeredNotification, from: context)
        context.discoveryManager.removeDevice(device)
        #expect(
            await states.next()
                == .init(name: "CastStateDidChangeNotification", state: .noDevicesAvailable)
        )
        context.presentDefaultExpandedMediaControls()
        #expect(await expanded.next() == .init(name: "CastExpandedMediaControlsTriggeredNotification", state: nil))
        #expect(CastState.notificationKey == "CastState")
    }

    @Test func aContextCreatedAfterANameIsReadPostsFromTheStart() async throws {
        CastContext.removeAnnouncementPoster()
        let stateName = CastState.didChangeNotification
        let expandedName = CastContext.expandedMediaControlsTriggeredNotification
        let harness = Harness()
        let context = harness.context(harness.options())
        let states = NotificationLog(stateName, from: context)
        let expanded = NotificationLog(expandedName, from: context)

        let device = try await context.discoveryManager.addDevice(host: "127.0.0.1", port: 8009, friendlyName: "Fake")
        #expect(await states.next() == .init(name: "CastStateDidChangeNotification", state: .notConnected))
        _ = try await context.sessionManager.startSession(with: device)
        #expect(await states.next()?.state == .connecting)
        #expect(await states.next()?.state == .connected)

        context.presentDefaultExpandedMediaControls()
        #expect(await expanded.next()?.name == "CastExpandedMediaControlsTriggeredNotification")
        await context.sessionManager.endSession()
        #expect(await states.next()?.state == .notConnected)
        #expect(expanded.all.count == 1)
    }
}
