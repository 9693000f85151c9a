import CastAuth
import CastCrypto
import CastNet
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender

/// Extra device roots read from PEM files: every certificate of a good file, a typed error
/// naming the file for anything else.
@Suite struct TrustRootFileTests {
    static func write(_ text: String, name: String) throws -> (URL, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return (directory, file)
    }

    @Test func everyCertificateOfTheFileIsRead() throws {
        let chain = try #require(VirtualDeviceAuthority.shared)
        let text = "a comment\n" + chain.root.pemString + "\n" + chain.intermediate.pemString
        let (directory, file) = try Self.write(text, name: "roots.pem")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try TrustRootFile.certificates(atPath: file.path) == [chain.root, chain.intermediate])
    }

    @Test(arguments: [
        ("", TrustRootFile.LoadError.Code.noCertificate),
        ("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", .noCertificate),
        ("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", .malformed),
        ("-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n", .malformed),
        ("-----BEGIN CERTIFICATE-----\nMIIB", .malformed),
        (String(repeating: "A", count: TrustRootFile.maximumSize + 1), .tooLarge),
    ])
    func malformedFilesAreRefused(text: String, code: TrustRootFile.LoadError.Code) throws {
        let (directory, file) = try Self.write(text, name: "bad.pem")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            _ = try TrustRootFile.certificates(atPath: file.path)
            Issue.record("accepted \(text.prefix(40))")
        } catch {
            #expect(error.code == code, "\(error)")
            #expect(error.path == file.path)
            #expect(error.description.hasPrefix(file.path + ": "))
        }
    }

    @Test func missingAndUnreadablePathsAreRefused() throws {
        do {
            _ = try TrustRootFile.certificates(atPath: "/nonexistent/r.pem")
            Issue.record("a missing file was read")
        } catch {
            #expect(error.code == .notFound)
            #expect(error.code.rawValue == 1)
        }
        do {
            _ = try TrustRootFile.certificates(atPath: FileManager.default.temporaryDirectory.path)
            Issue.record("a directory was read")
        } catch {
            #expect(error.code == .unreadable, "a directory is not a file of roots")
        }
    }

    @Test func listsSplitOnColonsAndSkipEmptyEntries() {
        #expect(TrustRootFile.paths(fromList: "") == [])
        #expect(TrustRootFile.paths(fromList: "/a.pem") == ["/a.pem"])
        #expect(TrustRootFile.paths(fromList: ":/a.pem::/b c.pem:") == ["/a.pem", "/b c.pem"])
    }
}
