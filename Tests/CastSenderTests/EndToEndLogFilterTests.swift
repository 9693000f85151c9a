import CastSenderTestSupport
import CastSync
import Testing

@testable import CastSender

/// The context's logger filter against the virtual device's engine in memory
/// (``InMemoryRig``): what a filter excludes is never logged.
@Suite struct EndToEndLogFilterTests {
    @Test func aComponentFilterSilencesTheRest() async throws {
        let rig = InMemoryRig()
        let sink = CollectingSink()
        let logger = CastLogger()
        logger.sink = sink
        var filter = CastLogFilter(minimumLevel: .verbose, exclusive: true)
        filter.setMinimumLevel(.debug, for: [.media])
        logger.filter = filter
        let context = rig.context(rig.options { $0.logger = logger })
        let session = try await rig.run("the session start") {
            try await context.sessionManager.startSession(with: rig.target)
        }
        try await rig.run("the GET_STATUS") { try await session.remoteMediaClient.requestStatus().result }
        let entries = sink.entries.withLock { $0 }
        #expect(!entries.isEmpty)
        #expect(entries.allSatisfy { $0.component == .media && $0.level >= .debug })
    }
}
