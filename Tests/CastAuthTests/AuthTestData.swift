import CastNet
import Foundation
import Testing

/// Locates the Open Screen Cast test data: `CAST_TESTDATA_DIR`, else
/// `<repo root>/../shared/testdata/openscreen-cast`.
enum AuthTestData {
    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String { "test data not found at \(path) (set CAST_TESTDATA_DIR)" }
    }

    static var directory: URL {
        get throws {
            let url: URL
            if let override = ProcessInfo.processInfo.environment["CAST_TESTDATA_DIR"], !override.isEmpty {
                url = URL(fileURLWithPath: override)
            } else {
                // #filePath = <root>/Tests/CastAuthTests/AuthTestData.swift
                let root = URL(fileURLWithPath: #filePath)
                    .deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent()
                url = root.deletingLastPathComponent().appendingPathComponent("shared/testdata/openscreen-cast")
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue
            else { throw Missing(path: url.path) }
            return url
        }
    }

    static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(relativePath), encoding: .utf8)
    }

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: directory.appendingPathComponent(relativePath)))
    }

    static func chain(_ relativePath: String) throws -> [Certificate] {
        try Certificate.certificates(pemEncoded: text(relativePath))
    }

    static let certificates = "common/certificate/certificates/"
    static let signedData = "common/certificate/signeddata/"
    static let channel = "receiver/channel/"
}

extension Date {
    /// Midnight UTC of a calendar day.
    static func utc(
        _ year: Int,
        _ month: Int,
        _ day: Int,
        _ hour: Int = 0,
        _ minute: Int = 0,
        _ second: Int = 0
    )
        -> Date
    {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(
            from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        )!
    }
}

/// Hexadecimal text of bytes, for comparing with `openssl` output.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}
