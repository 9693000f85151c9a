package import Foundation

/// The Open Screen Cast test data (certificates, signed data, device-auth messages, CRLs).
///
/// The directory is `CAST_TESTDATA_DIR`, else the first that exists of
/// `<repository root>/../shared/testdata/openscreen-cast` and the machine's shared copy. A
/// missing directory or file is an error, so the test fails instead of being skipped.
package enum CastTestData {
    /// The test data directory or a file in it does not exist.
    package struct Missing: Error, CustomStringConvertible {
        /// The path looked for.
        package let path: String
        package var description: String { "test data not found at \(path) (set CAST_TESTDATA_DIR)" }
    }

    /// The folder of the device certificate chains, relative to ``directory``.
    package static let certificates = "common/certificate/certificates/"
    /// The folder of the signed-data vectors, relative to ``directory``.
    package static let signedData = "common/certificate/signeddata/"
    /// The folder of the receiver channel vectors, relative to ``directory``.
    package static let channel = "receiver/channel/"

    /// The test data directory.
    /// - Throws: ``Missing`` when no candidate directory exists.
    package static var directory: URL {
        get throws(Missing) {
            let candidates: [URL]
            if let override = ProcessInfo.processInfo.environment["CAST_TESTDATA_DIR"], !override.isEmpty {
                candidates = [URL(fileURLWithPath: override, isDirectory: true)]
            } else {
                candidates = [
                    RepositoryPaths.root.deletingLastPathComponent()
                        .appendingPathComponent("shared/testdata/openscreen-cast", isDirectory: true),
                    URL(fileURLWithPath: "/work/shared/testdata/openscreen-cast", isDirectory: true),
                ]
            }
            for candidate in candidates {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                    isDirectory.boolValue
                {
                    return candidate
                }
            }
            throw Missing(path: candidates[0].path)
        }
    }

    /// The bytes of a file, e.g. `receiver/channel/auth_response.pb`.
    package static func bytes(_ relativePath: String) throws -> [UInt8] {
        let url = try directory.appendingPathComponent(relativePath)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw Missing(path: url.path) }
        return [UInt8](data)
    }

    /// The UTF-8 text of a file, e.g. a PEM certificate chain.
    package static func text(_ relativePath: String) throws -> String {
        String(decoding: try bytes(relativePath), as: UTF8.self)
    }

    /// The names of the files in a folder, sorted.
    package static func fileNames(in relativePath: String) throws -> [String] {
        let url = try directory.appendingPathComponent(relativePath)
        return try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}
