import CastSync
import Foundation
import Testing

@testable import CastSender

/// GCK's filter features: per-component levels, function rules, message patterns, exclusive.
@Suite struct CastLogFilterRulesTests {
    func passes(
        _ filter: CastLogFilter,
        _ level: CastLogLevel,
        _ component: CastLogComponent,
        _ function: String,
        _ message: String
    ) -> Bool {
        filter.allows(level, from: component, function: function, message: message)
    }

    @Test func functionRulesUseSwiftNamesWithWildcards() {
        var filter = CastLogFilter(minimumLevel: .error)
        filter.setMinimumLevel(.verbose, forFunctions: ["load(_:)", "queue*"])
        #expect(passes(filter, .verbose, .media, "load(_:)", "loading media"))
        #expect(passes(filter, .debug, .media, "queueInsert(_:beforeItemID:customData:)", "media command sent"))
        #expect(!passes(filter, .debug, .media, "pause(customData:)", "media command sent"))
        #expect(!passes(filter, .debug, .media, "reload(_:)", "x"), "a name without a wildcard matches exactly")
        // The conservative check lets a message through whenever a rule could.
        #expect(filter.allows(.verbose, from: .media))
    }

    @Test func messagePatternsAreRegularExpressions() throws {
        var filter = CastLogFilter(minimumLevel: .error)
        try filter.addMessagePatterns(
            ["^session", "device (found|removed)"],
            caseInsensitive: true,
            minimumLevel: .debug
        )
        #expect(passes(filter, .debug, .session, "f()", "Session started"))
        #expect(passes(filter, .info, .discovery, "f()", "device removed"))
        #expect(!passes(filter, .verbose, .discovery, "f()", "device found"), "below the pattern's level")
        #expect(!passes(filter, .info, .discovery, "f()", "a session"), "anchored pattern")
        var sensitive = CastLogFilter(minimumLevel: .error)
        try sensitive.addMessagePatterns(["^session"])
        #expect(!passes(sensitive, .info, .session, "f()", "Session started"))
        #expect(passes(sensitive, .info, .session, "f()", "session started"))
    }

    @Test func anInvalidPatternIsATypedErrorAndChangesNothing() {
        var filter = CastLogFilter()
        #expect(throws: CastLogFilterError.self) { try filter.addMessagePatterns(["ok", "(unclosed"]) }
        do {
            try filter.addMessagePatterns(["[z-a]"])
            Issue.record("an inverted range should be refused")
        } catch {
            #expect(error.pattern == "[z-a]")
            #expect(error.description.contains("[z-a]"))
        }
        #expect(filter == CastLogFilter(), "no pattern was added")
    }

    @Test func theMostSpecificRuleDecides() throws {
        var filter = CastLogFilter(minimumLevel: .verbose)
        filter.setMinimumLevel(.error, for: [.media])
        try filter.addMessagePatterns(["status"], minimumLevel: .info)
        filter.setMinimumLevel(.warning, forFunctions: ["receive(_:)"])
        #expect(!passes(filter, .info, .media, "receive(_:)", "media status"), "the function rule wins")
        #expect(passes(filter, .warning, .media, "receive(_:)", "media status"))
        #expect(passes(filter, .info, .media, "other()", "media status"), "then the message rule")
        #expect(!passes(filter, .info, .media, "other()", "loading"), "then the component")
        #expect(passes(filter, .verbose, .session, "other()", "loading"), "then the minimum level")
    }

    @Test func exclusiveDropsWhatNoRuleMatches() throws {
        var filter = CastLogFilter(minimumLevel: .verbose, exclusive: true)
        filter.addComponents([.discovery], minimumLevel: .debug)
        filter.addFunctions(["startSession(with:host:port:)"])
        #expect(passes(filter, .debug, .discovery, "f()", "device found"))
        #expect(passes(filter, .verbose, .session, "startSession(with:host:port:)", "x"))
        #expect(!passes(filter, .error, .session, "endSession(stopCasting:)", "x"))
        filter.reset()
        #expect(!passes(filter, .error, .discovery, "f()", "x"), "exclusive with no rules passes nothing")
    }

    @Test func theLoggerAppliesFunctionAndMessageRules() throws {
        let logger = CastLogger()
        let sink = CollectingSink()
        logger.sink = sink
        var filter = CastLogFilter(minimumLevel: .none)
        try filter.addMessagePatterns(["^kept"])
        logger.filter = filter
        logger.log(.info, .media, "kept: pattern")
        logger.log(.info, .media, "dropped")
        filter.setMinimumLevel(.debug, forFunctions: ["theLoggerAppliesFunctionAndMessageRules()"])
        logger.filter = filter
        logger.log(.debug, .session, "dropped by nothing: the function rule matches this test")
        #expect(
            sink.entries.withLock { $0.map(\.message) } == [
                "kept: pattern", "dropped by nothing: the function rule matches this test",
            ]
        )
        #expect(sink.entries.withLock { $0.last?.function } == "theLoggerAppliesFunctionAndMessageRules()")
    }
}

/// The rotating file sink (GCK's file logging with `maxLogFileSize` and `maxLogFileCount`).
@Suite struct CastFileLogSinkTests {
    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("cast-log-\(UUID().uuidString)")
    }

    static func entry(_ index: Int) -> CastLogEntry {
        CastLogEntry(
            level: .info,
            component: .session,
            message: "message \(index)",
            metadata: ["cast.b": "2", "cast.a": "1"],
            function: "f()",
            location: "CastSender/File.swift:\(index)"
        )
    }

    @Test func linesAreFormattedAsTheCodelabsDelegatePrintsThem() {
        #expect(
            CastFileLogSink.format(Self.entry(7))
                == "[info] CastSender/File.swift:7: f() - message 7 cast.a=1 cast.b=2\n"
        )
        var multiline = Self.entry(1)
        multiline.message = "two\nlines"
        multiline.metadata = [:]
        #expect(CastFileLogSink.format(multiline) == "[info] CastSender/File.swift:1: f() - two\\nlines\n")
    }

    @Test func filesRotateAtTheSizeCapAndOnlyTheNewestAreKept() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("sdk.log")
        let sink = try CastFileLogSink(url: url, maximumFileSize: 1024, maximumFileCount: 3)
        let lineSize = CastFileLogSink.format(Self.entry(100)).utf8.count
        for index in 100..<200 { sink.log(Self.entry(index)) }
        let sizes = try ([url] + sink.rotatedURLs).map { url -> Int in
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            return (attributes[.size] as? NSNumber)?.intValue ?? -1
        }
        #expect(sizes.allSatisfy { $0 > 0 && $0 <= 1024 }, "\(sizes)")
        #expect(!FileManager.default.fileExists(atPath: url.path + ".3"), "at most three files")
        let current = try String(contentsOf: url, encoding: .utf8)
        #expect(current.hasSuffix("message 199 cast.a=1 cast.b=2\n"))
        let older = try String(contentsOf: sink.rotatedURLs[0], encoding: .utf8)
        let oldest = try String(contentsOf: sink.rotatedURLs[1], encoding: .utf8)
        // The files hold consecutive messages, newest last, with nothing lost between them.
        let numbers = (oldest + older + current).split(separator: "\n").compactMap { line in
            line.firstMatch(of: /message (\d+)/).map { Int($0.1)! }
        }
        #expect(numbers == Array(numbers.first!...199))
        #expect(numbers.count >= 2 * (1024 / lineSize), "two full files at least")
    }

    @Test func aNewSinkAppendsToTheExistingFile() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("nested/sdk.log")
        try CastFileLogSink(url: url).log(Self.entry(1))
        try CastFileLogSink(url: url).log(Self.entry(2))
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 2)
    }

    @Test func aLineLongerThanTheCapIsCut() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("sdk.log")
        let sink = try CastFileLogSink(url: url, maximumFileSize: 10, maximumFileCount: 1)
        var long = Self.entry(1)
        long.message = String(repeating: "x", count: 5000)
        sink.log(long)
        sink.log(long)
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber
        #expect(size?.intValue == 1024, "the cap is at least 1 KiB and a line never exceeds it")
        #expect(sink.rotatedURLs.isEmpty)
    }

    @Test func anUnwritablePathIsAClearError() {
        do {
            _ = try CastFileLogSink(url: URL(fileURLWithPath: "/proc/cast-log-test/sdk.log"))
            Issue.record("a log file under /proc cannot be created")
        } catch {
            #expect(error.code == .invalidRequest)
            #expect(error.description.contains("/proc/cast-log-test/sdk.log"))
        }
    }
}
