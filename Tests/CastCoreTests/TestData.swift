import Foundation
import Testing

/// Locates the shared Cast test data.
///
/// The directory comes from `CAST_TESTDATA_DIR`, falling back to
/// `<repo root>/../shared/testdata/openscreen-cast`. A missing directory or file is a test
/// failure, never a skip.
enum TestData {
    struct MissingFile: Error, CustomStringConvertible {
        var path: String
        var description: String { "test data file not found: \(path) (set CAST_TESTDATA_DIR)" }
    }

    /// The test data directory.
    static var directory: URL {
        if let path = ProcessInfo.processInfo.environment["CAST_TESTDATA_DIR"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        // <root>/Tests/CastCoreTests/TestData.swift -> <root>
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.deletingLastPathComponent().appendingPathComponent("shared/testdata/openscreen-cast")
    }

    /// The bytes of a file under the test data directory, e.g. `receiver/channel/auth_response.pb`.
    static func bytes(_ relativePath: String) throws -> [UInt8] {
        let url = directory.appendingPathComponent(relativePath)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw MissingFile(path: url.path)
        }
        return [UInt8](data)
    }

    /// The names of the files in a folder under the test data directory.
    static func fileNames(in relativePath: String) throws -> [String] {
        let url = directory.appendingPathComponent(relativePath)
        return try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}
