import CastSync
import Testing

@testable import CastSender

final class CollectingSink: CastLogSink {
    let entries = Locked<[CastLogEntry]>([])
    func log(_ entry: CastLogEntry) { entries.withLock { $0.append(entry) } }
}

@Suite struct CastLoggerTests {
    @Test func silentWithoutSink() {
        let logger = CastLogger()
        #expect(!logger.isEnabled(.error, for: .session))
    }

    @Test func filterByComponentAndLevel() {
        let logger = CastLogger()
        let sink = CollectingSink()
        logger.sink = sink
        var filter = CastLogFilter(minimumLevel: .warning)
        filter.setMinimumLevel(.verbose, for: [.media])
        logger.filter = filter
        logger.log(.info, .session, "dropped")
        logger.log(.error, .session, "kept")
        logger.log(.verbose, .media, "kept too")
        #expect(sink.entries.withLock { $0.map(\.message) } == ["kept", "kept too"])
        filter.exclusive = true
        logger.filter = filter
        logger.log(.error, .session, "dropped")
        #expect(sink.entries.withLock { $0.count } == 2)
    }

    @Test func credentialsAreRedacted() {
        let payload =
            #"{"type":"LOAD","credentials":"secret","media":{"contentId":"x"},"appParams":{"launchCheckerParams":{"credentialsData":{"credentials":"s"}}}}"#
        let redacted = LogRedaction.redact(payload)
        #expect(!redacted.contains("secret"))
        #expect(!redacted.contains("\"s\""))
        #expect(redacted.contains("contentId"))
        #expect(LogRedaction.redact("not json {").contains("not JSON"))
    }
}
