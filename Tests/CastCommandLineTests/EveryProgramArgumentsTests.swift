import CastTestSupport
import Foundation
import Testing

/// The five executables read their command lines with one parser: the same `--help` layout and
/// the same error style (`error: PROGRAM: …`, `See 'PROGRAM --help'.`, exit status 2).
@Suite struct EveryProgramArgumentsTests {
    static let programs = ["cast", "castvideos", "cast-emulator", "cast-bench", "mdns-tool"]

    @Test(arguments: programs)
    func helpHasOneLayout(program: String) async throws {
        let path = try #require(RepositoryPaths.builtExecutable(program), "build \(program) first (swift build)")
        let (status, output) = try await runProgram(path, ["--help"], deadline: .seconds(30))
        #expect(status == 0, "\(output)")
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasPrefix("\(program) — ") == true, "\(lines.first ?? "")")
        #expect(lines.contains { $0.hasPrefix("USAGE: \(program)") }, "\(output)")
        #expect(lines.contains("OPTIONS:"), "\(output)")
        #expect(lines.contains { $0.hasPrefix("  -h, --help") || $0.hasPrefix("  -h, --help ") }, "\(output)")
    }

    @Test(arguments: programs)
    func usageErrorsHaveOneStyle(program: String) async throws {
        let path = try #require(RepositoryPaths.builtExecutable(program), "build \(program) first (swift build)")
        let (status, output) = try await runProgram(path, ["--bogus"], deadline: .seconds(30))
        #expect(status == 2, "\(output)")
        #expect(output.contains("error: \(program): unknown option '--bogus'"), "\(output)")
        #expect(output.contains("See '\(program) --help'."), "\(output)")
    }
}
