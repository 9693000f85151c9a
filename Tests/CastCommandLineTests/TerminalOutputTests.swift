import CastCore
import CastNet
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastCommandLine

#if canImport(Glibc)
import Glibc
#endif

/// Every string from outside reaches the terminal through the one sanitizer: escapes planted
/// in a device's name (its `eureka_info`, read before authentication), a local file's name,
/// `--title`, a group's member names and a status, then the raw output searched for ESC and
/// C1 controls. `--json` escapes C1 controls.
@Suite struct TerminalOutputTests {
    /// OSC title, clear screen, OSC 52 clipboard write, 8-bit CSI, an 8-bit OSC string.
    static let escapes = "\u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}]52;c;ZWNobyBwd25lZA==\u{07}\u{9B}31m\u{9D}x\u{9C}\u{85}"

    /// The ESC and C1 controls in `text` (what a terminal acts on).
    static func terminalControls(_ text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter { $0 == 0x1B || (0x80...0x9F).contains($0) }
    }

    /// A device named with escapes, its setup server on 8008 (where `cast` reads the name) of
    /// a random loopback address; another address is tried when another suite holds 8008.
    static func evilDevice() async throws -> DeviceFixture {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await DeviceFixture.start(name: "Evil\(escapes)TV", setupPort: 8008)
            } catch let error as TCPError where error.code == .addressInUse && attempt < 8 {
                continue
            }
        }
    }

    @Test func aDeviceNameFromEurekaInfoIsSanitizedBeforeAuthentication() async throws {
        let fixture = try await Self.evilDevice()
        defer { Task { await fixture.stop() } }
        // Without the virtual device's root, authentication fails: the error names the device.
        var environment = fixture.environment
        environment["CAST_TRUST_ROOTS"] = nil
        // `status` reads the device's status on a connection of its own first; `play` starts a
        // session at once: each error names the device.
        for (arguments, message) in [
            (["status"], "cannot read the status of Evil?TV: device authentication"),
            (["play", "https://media.invalid/a.mp4"], "cannot start a session on Evil?TV: device authentication"),
        ] {
            let result = try await CastProcess.run(["-d", fixture.target] + arguments, environment: environment)
            #expect(result.status == 1)
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(Self.terminalControls(result.stdout + result.stderr).isEmpty, "\(result.stderr.debugDescription)")
        }
    }

    @Test func playPrintsFileNamesTitlesAndTheDeviceNameSanitized() async throws {
        let fixture = try await Self.evilDevice()
        defer { Task { await fixture.stop() } }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cast-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("clip\(Self.escapes).mp4")
        try Data(repeating: 0, count: 1024).write(to: file)

        var result = try await fixture.cast("play", file.path, "--detach")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Playing clip"), "\(result.stdout)")
        #expect(Self.terminalControls(result.stdout + result.stderr).isEmpty, "\(result.stdout.debugDescription)")

        result = try await fixture.cast("play", "https://media.invalid/a.mp4", "--title", "Title\(Self.escapes)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Playing Title"), "\(result.stdout)")
        #expect(Self.terminalControls(result.stdout + result.stderr).isEmpty, "\(result.stdout.debugDescription)")

        for arguments in [["status"], ["queue", "list"], ["tracks"], ["info"]] {
            result = try await CastProcess.run(["-d", fixture.target] + arguments, environment: fixture.environment)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(Self.terminalControls(result.stdout + result.stderr).isEmpty, "\(arguments): \(result.stdout)")
        }

        // JSON keeps the title exactly, with the C1 controls written as escapes.
        result = try await fixture.cast("status", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.terminalControls(result.stdout).isEmpty, "\(result.stdout.debugDescription)")
        #expect(result.stdout.contains(#"\u009b31m"#) && result.stdout.contains(#"\u001b"#))
        let status = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((status["media"] as? [String: Any])?["title"] as? String == "Title\(Self.escapes)")
    }

    @Test func memberNamesInAnErrorAreSanitized() async throws {
        let fixture = try await GroupCommandTests.Fixture.start(memberPrefix: "Room\(Self.escapes)")
        defer { Task { await fixture.stop() } }
        var result = try await fixture.cast("volume", "30%", "--member", "nobody")
        #expect(result.status == 1)
        #expect(result.stderr.contains("has no member named 'nobody'"), "\(result.stderr)")
        #expect(Self.terminalControls(result.stdout + result.stderr).isEmpty, "\(result.stderr.debugDescription)")
        result = try await fixture.cast("group")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.terminalControls(result.stdout + result.stderr).isEmpty, "\(result.stdout.debugDescription)")
    }

    /// The sink itself: whatever text a command hands it, escapes never pass; only its own
    /// styling and progress redraw are escape sequences.
    @Test func theSinkSanitizesEveryLineAndStylesAfterwards() {
        let written = Locked<[String]>([])
        let sink = OutputSink(
            errorIsTerminal: true,
            usesColor: true,
            out: { text in written.withLock { $0.append(text) } },
            err: { text in written.withLock { $0.append(text) } }
        )
        sink.line("a\tb\nc\(Self.escapes)")
        sink.error("failed\non \(Self.escapes)")
        sink.error(.styled("error: ", .red) + TerminalLine("x\(Self.escapes)"))
        sink.progressLine("PLAYING \(Self.escapes)")
        let lines = written.withLock { $0 }
        #expect(lines[0] == "a\tb\nc?\n")
        #expect(lines[1] == "failed?on ?\n")
        #expect(lines[2] == "\u{1B}[31merror: \u{1B}[0mx?\n")
        #expect(lines[3].hasPrefix("\r\u{1B}[K") && Self.terminalControls(String(lines[3].dropFirst(4))).isEmpty)
        #expect(Self.terminalControls(lines[0] + lines[1]).isEmpty)
        #expect(OutputSink.encode(.string("\u{85}\u{9B}\u{7F}")) == #""\u0085\u009b\u007f""#)
    }
}
