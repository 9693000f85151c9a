import Foundation
package import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Something outside the package that a test needs: a Python with the interop peers, a tool
/// from Debian, root for network namespaces, the shared test data.
///
/// A test names what it needs with the ``Testing/Trait/requires(_:)`` trait. Where one is
/// missing the test is skipped with one line saying what is missing and how `scripts/test.sh`
/// provides it, instead of failing on a timeout or a missing file. `scripts/test.sh` sets
/// `CAST_REQUIRE_ALL_LANES=1`: then no tool lane is skipped, and a missing prerequisite fails
/// the test with that same line, so no lane is silently left out where it must run. The shared
/// test data is the exception: it is not part of the repository, so a clone without it still
/// passes (its suites skip) unless `CAST_REQUIRE_TESTDATA=1` (set by `.ci/run`) requires it.
package struct TestPrerequisite: Sendable, CustomStringConvertible {
    /// What is needed, such as "ffmpeg".
    package let name: String
    /// How `scripts/test.sh` provides it.
    package let provision: String
    /// Whether this is data kept outside the repository (``openScreenTestData``,
    /// ``realDevicePayloads``), required only under `CAST_REQUIRE_TESTDATA=1`.
    package let isExternalData: Bool
    private let probe: Probe

    /// Checks once per process whether the prerequisite is there.
    private final class Probe: Sendable {
        let missing: String?
        init(_ check: () -> String?) { missing = check() }
    }

    /// A prerequisite whose `check` returns `nil` when it is there, else what is missing.
    /// The check runs once, at the first use.
    package init(
        name: String,
        provision: String,
        isExternalData: Bool = false,
        check: @escaping @Sendable () -> String?
    ) {
        self.name = name
        self.provision = provision
        self.isExternalData = isExternalData
        self.probe = Probe(check)
    }

    /// What is missing, or `nil` when the prerequisite is there.
    package var missing: String? { probe.missing }

    /// Whether the prerequisite is there.
    package var isAvailable: Bool { missing == nil }

    /// The line a skip or a failure reports: what is missing and how to get it.
    package var description: String {
        "needs \(name): \(missing ?? "present"); \(provision)"
    }

    /// Whether every prerequisite must be there (`CAST_REQUIRE_ALL_LANES=1`, set by
    /// `scripts/test.sh`): a missing one fails its tests instead of skipping them.
    package static let requiresAll: Bool = ProcessInfo.processInfo.environment["CAST_REQUIRE_ALL_LANES"] == "1"

    /// Whether the shared test data must be there (`CAST_REQUIRE_TESTDATA=1`, set by
    /// `.ci/run`); without it a clone lacking ../shared skips the suites that read the data.
    package static let requiresTestData: Bool =
        ProcessInfo.processInfo.environment["CAST_REQUIRE_TESTDATA"] == "1"

    /// Whether a missing prerequisite of this kind fails its tests instead of skipping them.
    package var isRequired: Bool { isExternalData ? Self.requiresTestData : Self.requiresAll }

    /// Throws the prerequisite's line unless it is there: for a test that finds out only at
    /// run time which prerequisite it needs.
    package func require() throws(MissingPrerequisite) {
        if missing != nil { throw MissingPrerequisite(description: description) }
    }
}

/// A prerequisite a test needed was missing; the description says which and how to get it.
package struct MissingPrerequisite: Error, CustomStringConvertible {
    package let description: String
}

// MARK: The prerequisites

extension TestPrerequisite {
    /// A tool from Debian, found on `PATH`.
    package static func debianTool(_ command: String, package debianPackage: String) -> TestPrerequisite {
        TestPrerequisite(
            name: command,
            provision: "scripts/test.sh installs it with apt-get (package \(debianPackage), scripts/prerequisites.sh)"
        ) {
            RepositoryPaths.executableOnPath(command) == nil ? "no \(command) on PATH" : nil
        }
    }

    /// The Python of the interop peers (pychromecast, catt, zeroconf, nichromecast).
    package static let pythonPeers = TestPrerequisite(
        name: "the Python interop peers",
        provision:
            "scripts/test.sh creates .venv from scripts/requirements-interop.txt (or set CAST_TEST_PYTHON to a Python that has them)"
    ) {
        let python = RepositoryPaths.python
        guard FileManager.default.isExecutableFile(atPath: python) else { return "no Python at \(python)" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", "import pychromecast, zeroconf, catt"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            return "\(python) does not start: \(error)"
        }
        return process.terminationStatus == 0 ? nil : "\(python) cannot import pychromecast, zeroconf and catt"
    }

    /// Root, to create network namespaces (`unshare -n`, `ip netns`).
    package static let networkNamespaces = TestPrerequisite(
        name: "root for network namespaces",
        provision: "scripts/test.sh runs as root, as CI does (run it with sudo)"
    ) {
        geteuid() == 0 ? nil : "not running as root"
    }

    /// The Open Screen test data (`CAST_TESTDATA_DIR`, or ../shared/testdata/openscreen-cast).
    package static let openScreenTestData = TestPrerequisite(
        name: "the Open Screen Cast test data",
        provision: "scripts/test.sh sets CAST_TESTDATA_DIR (scripts/testdata-env.sh) to ../shared/testdata",
        isExternalData: true
    ) {
        do {
            _ = try CastTestData.directory
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Payloads recorded from real devices (`CAST_REAL_DEVICES_DIR`, or
    /// ../shared/testdata/real-devices).
    package static let realDevicePayloads = TestPrerequisite(
        name: "the payloads recorded from real devices",
        provision: "scripts/test.sh sets CAST_REAL_DEVICES_DIR (scripts/testdata-env.sh) to ../shared/testdata",
        isExternalData: true
    ) {
        do {
            _ = try RealDevicePayloads.directory
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// `ip` (iproute2), which the namespace tests run from `/usr/sbin`.
    package static let iproute2 = TestPrerequisite(
        name: "ip",
        provision: "scripts/test.sh installs it with apt-get (package iproute2, scripts/prerequisites.sh)"
    ) {
        FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") ? nil : "no /usr/sbin/ip"
    }

    /// The system's Python 3 (not the peers' environment), for small encoders in tests.
    package static let python3 = TestPrerequisite(
        name: "python3",
        provision: "scripts/test.sh stops without it (scripts/prerequisites.sh): install Debian's python3"
    ) {
        RepositoryPaths.executableOnPath("python3") == nil ? "no python3 on PATH" : nil
    }
    package static let curl = debianTool("curl", package: "curl")
    package static let openssl = debianTool("openssl", package: "openssl")
    package static let ffmpeg = debianTool("ffmpeg", package: "ffmpeg")
    package static let tmux = debianTool("tmux", package: "tmux")
    package static let vlc = debianTool("cvlc", package: "vlc-bin")
    package static let mkchromecast = debianTool("mkchromecast", package: "mkchromecast")
    package static let chromium = debianTool("chromium", package: "chromium")
}

// MARK: The trait

/// Skips a test or suite whose prerequisites are missing (with one line naming each and how to
/// get it), or, where the prerequisite is required (``TestPrerequisite/isRequired``), fails it
/// with that line.
package struct PrerequisiteTrait: TestTrait, SuiteTrait, TestScoping {
    let prerequisites: [TestPrerequisite]

    package var isRecursive: Bool { true }

    package var comments: [Comment] { prerequisites.map { Comment(rawValue: "needs \($0.name)") } }

    private var firstMissing: TestPrerequisite? { prerequisites.first { !$0.isAvailable } }

    /// The first missing prerequisite that must be there; it fails the test rather than skip it.
    private var firstRequiredMissing: TestPrerequisite? { prerequisites.first { !$0.isAvailable && $0.isRequired } }

    package func prepare(for test: Test) async throws {
        guard firstRequiredMissing == nil, let missing = firstMissing else { return }
        // The skip the testing library reports, with the line as its comment.
        try await ConditionTrait.disabled(Comment(rawValue: missing.description)).prepare(for: test)
    }

    package func scopeProvider(for test: Test, testCase: Test.Case?) -> PrerequisiteTrait? {
        // Once per test function (or per suite's own scope), not once per argument.
        testCase == nil ? self : nil
    }

    package func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        if let missing = firstRequiredMissing {
            // Reached only when the prerequisite is required: otherwise prepare skipped the test.
            let requirement = missing.isExternalData ? "CAST_REQUIRE_TESTDATA=1" : "CAST_REQUIRE_ALL_LANES=1"
            Issue.record(
                Comment(rawValue: "\(missing.description) (\(requirement) makes a missing prerequisite fail)"),
                sourceLocation: test.sourceLocation
            )
            return
        }
        try await function()
    }
}

extension Trait where Self == PrerequisiteTrait {
    /// The test or suite needs `prerequisites`: skipped with one line when one is missing, or
    /// failed with it where it is required (``TestPrerequisite/isRequired``).
    package static func requires(_ prerequisites: TestPrerequisite...) -> Self {
        PrerequisiteTrait(prerequisites: prerequisites)
    }
}
