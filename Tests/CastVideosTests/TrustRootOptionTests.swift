import CastArguments
import CastTestSupport
import Foundation
import Testing

@testable import castvideos

/// The extra device roots castvideos trusts: `--trust-root FILE` (repeatable), else
/// `CAST_TRUST_ROOTS`; a file that cannot be used stops the app with a usage error naming it.
struct TrustRootOptionTests {
    @Test func trustRootsComeFromTheOptionsElseTheEnvironment() throws {
        let given = try CommandLineOptions(arguments: ["--trust-root", "a.pem", "--trust-root=b.pem"])
        #expect(given.trustRootPaths == ["a.pem", "b.pem"])
        #expect(given.trustRootFiles(environment: ["CAST_TRUST_ROOTS": "c.pem"]) == ["a.pem", "b.pem"])
        let none = try CommandLineOptions(arguments: [])
        #expect(none.trustRootFiles(environment: ["CAST_TRUST_ROOTS": ":c.pem::d.pem:"]) == ["c.pem", "d.pem"])
        #expect(none.trustRootFiles(environment: [:]).isEmpty)
        #expect(CommandLineOptions.usage.contains("--trust-root FILE"))
        #expect {
            try CommandLineOptions(arguments: ["--trust-root"])
        } throws: { error in
            (error as? UsageError)?.code == .missingValue
                && (error as? UsageError)?.description == "castvideos: --trust-root needs a value (FILE)"
        }
    }

    /// The app exits with status 2 before taking over the terminal.
    @Test func anUnusableTrustRootFileIsAUsageError() async throws {
        let binary = try #require(TmuxDriver.appBinary(), "build castvideos first (swift build)")
        let directory = try TmuxDriver.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let broken = directory.appendingPathComponent("broken.pem")
        try Data("no certificate here\n".utf8).write(to: broken)
        let environment = [
            "HOME": directory.path, "CASTVIDEOS_CONFIG_DIR": directory.path, "TERM": "dumb",
            "CAST_TRUST_ROOTS": broken.path,
        ]
        let result = try await Self.run(binary, ["--no-virtual-device"], environment: environment)
        #expect(result.status == 2, "\(result.output)")
        #expect(result.output.contains("castvideos: trust root \(broken.path): holds no PEM CERTIFICATE block"))
        let missing = try await Self.run(
            binary,
            ["--trust-root", "/nonexistent/root.pem"],
            environment: environment
        )
        #expect(missing.status == 2, "\(missing.output)")
        #expect(missing.output.contains("/nonexistent/root.pem: no such file"), "\(missing.output)")
    }

    /// Runs the program; the wait sleeps between polls, so it blocks no thread of the pool.
    static func run(
        _ path: String,
        _ arguments: [String],
        environment: [String: String]
    ) async throws -> (status: Int32, output: String) {
        try await runProgram(path, arguments, environment: environment, deadline: .seconds(60))
    }
}
