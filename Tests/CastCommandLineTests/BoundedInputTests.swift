import CastSender
import CastTestSupport
import Foundation
import Testing

@testable import CastCommandLine

/// Local files and saved state the command line reads are bounded.
@Suite struct BoundedInputTests {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cast-bounded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func anOversizedConfigurationIsRefusedBeforeItIsRead() async throws {
        let home = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let config = home.appendingPathComponent(".config/cast/config.json")
        try FileManager.default.createDirectory(
            at: config.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        // Valid JSON, padded past the cap.
        let refusing = try RefusingPort()
        let padded = #"{"device": "127.0.0.1:\#(refusing.port)"}"# + String(repeating: " ", count: 70_000)
        try Data(padded.utf8).write(to: config)
        let output = CapturedOutput()
        let code = await CastCommandLine.run(["status"], environment: ["HOME": home.path], output: output.sink)
        #expect(code == .usage)
        #expect(output.err.contains("larger than 64 KiB"))
        withExtendedLifetime(refusing) {}
    }

    @Test func privateFilesAreWrittenAtomicallyWithMode0600AndReadWithACap() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("state/session.json")
        #expect(PrivateFile.write(Data("{}".utf8), to: url))
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try PrivateFile.read(url) == Data("{}".utf8))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == [
                "session.json"
            ]
        )
        try Data(count: PrivateFile.maximumSize + 1).write(to: url)
        #expect(throws: PrivateFile.ReadError.tooLarge(limit: PrivateFile.maximumSize)) { try PrivateFile.read(url) }
        #expect(try PrivateFile.read(directory.appendingPathComponent("missing.json")) == nil)
        #expect(throws: PrivateFile.ReadError.unreadable) { try PrivateFile.read(directory) }
    }

    /// A saved session for a device that is gone costs one request timeout, not the SDK's
    /// whole reconnect schedule (about 55 s before). How long it takes is not asserted (a
    /// loaded machine stretches any figure); the command must end, with the failure status,
    /// well inside the hang guard.
    @Test func resumingASavedSessionForAGoneDeviceIsBoundedByTheRequestTimeout() async throws {
        let home = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let refusing = try RefusingPort()
        let port = refusing.port
        let saved = """
            {"deviceID":"\(UUID().uuidString)","host":"127.0.0.1","port":\(port),"applicationID":"CC1AD845",\
            "applicationSessionID":"s","transportID":"t","senderID":"sender-1"}
            """
        let state = home.appendingPathComponent("state")
        #expect(PrivateFile.write(Data(saved.utf8), to: state.appendingPathComponent("session.json")))
        let environment = [
            "HOME": home.path, "CAST_STATE_DIR": state.path, "CAST_REQUEST_TIMEOUT": "1",
            "CAST_DISCOVERY_INTERFACES": "lo",
        ]
        let code = try await withDeadline(.seconds(120), "cast status to give up") {
            await CastCommandLine.run(
                ["status", "-d", "127.0.0.1:\(port)"],
                environment: environment,
                output: CapturedOutput().sink
            )
        }
        #expect(code == .failure)
        withExtendedLifetime(refusing) {}
    }
}
