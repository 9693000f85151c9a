import CastTestSupport
import Foundation
import Testing

@testable import CastCommandLine

#if canImport(Glibc)
import Glibc
#endif

/// Local inputs are opened non-blocking and must be regular files: a FIFO in place of a trust
/// root, a configuration, a saved session or a subtitle file never hangs `cast`; a subtitle
/// file over 8 MiB is refused before it is read.
@Suite struct LocalInputTests {
    static func fifo(_ path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true
        )
        guard mkfifo(path, 0o600) == 0 else { throw TestFailure("mkfifo \(path): errno \(errno)") }
    }

    static func home() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cast-local-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aFIFOAsATrustRootIsAUsageErrorNotAHang() async throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let pipe = home.appendingPathComponent("root.pem").path
        try Self.fifo(pipe)
        let refusing = try RefusingPort()
        let target = "127.0.0.1:\(refusing.port)"
        var result = try await CastProcess.run(
            ["--trust-root", pipe, "-d", target, "status"],
            environment: ["HOME": home.path]
        )
        #expect(result.status == 2)
        #expect(result.stderr.contains("--trust-root \(pipe): not a regular file (a FIFO)"), "\(result.stderr)")
        result = try await CastProcess.run(
            ["-d", target, "status"],
            environment: ["HOME": home.path, "CAST_TRUST_ROOTS": pipe]
        )
        #expect(result.status == 2)
        #expect(result.stderr.contains("not a regular file (a FIFO)"), "\(result.stderr)")
        withExtendedLifetime(refusing) {}
    }

    @Test func aFIFOAsTheConfigurationIsAUsageError() async throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let config = home.appendingPathComponent(".config/cast/config.json").path
        try Self.fifo(config)
        let refusing = try RefusingPort()
        let result = try await CastProcess.run(
            ["-d", "127.0.0.1:\(refusing.port)", "status"],
            environment: ["HOME": home.path]
        )
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(config): not a regular file (a FIFO)"), "\(result.stderr)")
        withExtendedLifetime(refusing) {}
    }

    /// A FIFO as the saved session is no session: the command goes on to the device (which
    /// refuses here, exit 1) instead of waiting for a writer.
    @Test func aFIFOAsTheSavedSessionIsIgnored() async throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let state = home.appendingPathComponent("state")
        try Self.fifo(state.appendingPathComponent("session.json").path)
        let refusing = try RefusingPort()
        let result = try await CastProcess.run(
            ["-d", "127.0.0.1:\(refusing.port)", "status"],
            environment: ["HOME": home.path, "CAST_STATE_DIR": state.path, "CAST_REQUEST_TIMEOUT": "5"]
        )
        #expect(result.status == 1, "\(result.stderr)")
        withExtendedLifetime(refusing) {}
    }

    @Test func aSubtitleFIFOOrOversizedFileFailsBeforeAnyDevice() async throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let pipe = home.appendingPathComponent("live.srt").path
        try Self.fifo(pipe)
        let large = home.appendingPathComponent("large.srt")
        try Data(count: PlayCommand.maximumSubtitleSize + 1).write(to: large)
        let refusing = try RefusingPort()
        for (path, reason) in [(pipe, "not a regular file (a FIFO)"), (large.path, "larger than 8 MiB")] {
            let result = try await CastProcess.run(
                ["-d", "127.0.0.1:\(refusing.port)", "play", "https://media.invalid/a.mp4", "--subtitle", path],
                environment: ["HOME": home.path]
            )
            #expect(result.status == 1)
            #expect(result.stderr.contains("--subtitle \(path): \(reason)"), "\(result.stderr)")
        }
        withExtendedLifetime(refusing) {}
    }
}
