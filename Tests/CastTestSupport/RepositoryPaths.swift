package import Foundation

/// Where the repository, its Python peers and this package's built executables are, for
/// tests.
package enum RepositoryPaths {
    /// The repository root, found from this file's path
    /// (`<root>/Tests/CastTestSupport/RepositoryPaths.swift`).
    package static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The Python interpreter that runs the interop peers (pychromecast, catt, zeroconf):
    /// `CAST_TEST_PYTHON`, else `<root>/.venv/bin/python`. `scripts/test.sh` creates that
    /// environment from `scripts/requirements-interop.txt`.
    package static var python: String {
        if let path = ProcessInfo.processInfo.environment["CAST_TEST_PYTHON"], !path.isEmpty {
            return path
        }
        return root.appendingPathComponent(".venv/bin/python").path
    }

    /// A built executable of this package: the path in the environment variable `variable`
    /// when it is set, else the first executable named `name` beside the test bundle, one
    /// folder above it, or in `<root>/.build/debug`.
    package static func builtExecutable(_ name: String, overriddenBy variable: String? = nil) -> String? {
        var candidates: [String] = []
        if let variable, let explicit = ProcessInfo.processInfo.environment[variable], !explicit.isEmpty {
            candidates.append(explicit)
        }
        var directories = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        if let running = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append(URL(fileURLWithPath: running).deletingLastPathComponent())
        }
        for directory in directories {
            candidates.append(directory.appendingPathComponent(name).path)
            candidates.append(directory.deletingLastPathComponent().appendingPathComponent(name).path)
        }
        candidates.append(root.appendingPathComponent(".build/debug/\(name)").path)
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The first executable named `name` in a folder of `PATH`, or `nil`.
    package static func executableOnPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
