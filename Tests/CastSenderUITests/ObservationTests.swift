import CastCore
import CastSender
import CastSenderTestSupport
import CastSync
import Observation
import Testing

@testable import CastSenderUI

/// The widget models adopt Swift's Observation: a view that reads a model's `state` inside
/// `withObservationTracking` (SwiftUI's `body`) hears when it changes.
@Suite struct ObservationTests {
    /// Counts the changes Observation reports for what `read` touched, once per arming.
    final class ChangeCounter: Sendable {
        private let count = Locked(0)
        var value: Int { count.withLock { $0 } }

        /// Tracks what `read` reads; the next change of it counts once.
        func arm(_ read: @escaping @Sendable () -> Void) {
            withObservationTracking(read) { [self] in count.withLock { $0 += 1 } }
        }
    }

    @Test func theIntroductoryOverlayTellsObservation() async {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let model = IntroductoryOverlayModel(
            castStates: AsyncStream { $0.finish() },
            currentCastState: { .noDevicesAvailable },
            store: CastUIStateStore(directory: directory.url)
        )
        let changes = ChangeCounter()
        changes.arm { _ = model.state }
        #expect(changes.value == 0)
        #expect(model.presentOnce())
        // Observation calls the handler during the change itself: no waiting.
        #expect(changes.value == 1)
        changes.arm { _ = model.state }
        model.dismiss()
        #expect(changes.value == 2)
        #expect(model.state.overlay == nil)
    }

    @Test func aModelBuiltOnAnotherTracksThroughIt() async throws {
        let harness = Harness()
        let context = harness.context()
        let controller = MediaController(context: context)
        let mini = MiniControllerModel(mediaController: controller)
        let tracks = TrackSelectionModel(mediaController: controller)

        let miniChanges = ChangeCounter()
        miniChanges.arm { _ = mini.state }
        mini.isEnabled = false
        #expect(miniChanges.value == 1, "the mini controller's own state")

        // The track selector keeps no state of its own: reading its state reads the media
        // controller's, which Observation tracks.
        let trackChanges = ChangeCounter()
        trackChanges.arm { _ = tracks.state }
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo)
        try await session.remoteMediaClient.load(
            LoadRequestData(media: MediaInformation(contentID: "https://example.invalid/a.mp4", duration: 60))
        ).result
        #expect(await harness.waitUntil { controller.state.isMediaLoaded })
        #expect(trackChanges.value == 1)
        #expect(miniChanges.value == 1, "one arming, one report")
    }

    @Test func observationsStartWithTheStateNow() async throws {
        let harness = Harness()
        let context = harness.context()
        let controller = MediaController(context: context)
        let mini = MiniControllerModel(mediaController: controller)
        mini.isEnabled = false
        let states = Observations { mini.state.isEnabled }
        var seen: [Bool] = []
        for await isEnabled in states {
            seen.append(isEnabled)
            if seen.count == 1 { mini.isEnabled = true }
            if seen.count == 2 { break }
        }
        #expect(seen == [false, true])
    }
}
