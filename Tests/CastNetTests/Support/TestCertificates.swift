import CastCrypto
import CastNet
import CastTestSupport
import Foundation

/// Certificates made by the `openssl` command line for the tests, once per process.
struct TestIdentity: Sendable {
    let certificatePEM: String
    let keyPEM: String
    let certificatePath: String
    let keyPath: String

    /// A server configuration with this identity; its handshake timeout allows for a slow run.
    var serverConfiguration: TLSServerConfiguration {
        var configuration = try! TLSServerConfiguration(certificateChainPEM: certificatePEM, privateKeyPEM: keyPEM)
        configuration.handshakeTimeout = TestTiming.scaled(configuration.handshakeTimeout)
        return configuration
    }

    var certificate: Certificate { try! Certificate(pemEncoded: certificatePEM) }

    /// The DER form of the certificate, as `openssl x509 -outform DER` writes it.
    func certificateDER() throws -> [UInt8] {
        let body =
            certificatePEM
            .components(separatedBy: "\n")
            .filter { !$0.hasPrefix("-----") && !$0.isEmpty }
            .joined()
        guard let data = Data(base64Encoded: body) else { throw TestFailure("bad PEM") }
        return Array(data)
    }

    /// A self-signed EC certificate for `commonName` (also the DNS subject alt name).
    static func make(commonName: String) throws -> TestIdentity {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("castnet-tests-\(getpid())-\(commonName)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try opensslPath())
        process.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-subj", "/CN=\(commonName)", "-addext", "subjectAltName=DNS:\(commonName)",
            "-days", "2", "-keyout", key, "-out", certificate,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("openssl req failed") }
        return TestIdentity(
            certificatePEM: try String(contentsOfFile: certificate, encoding: .utf8),
            keyPEM: try String(contentsOfFile: key, encoding: .utf8),
            certificatePath: certificate,
            keyPath: key
        )
    }

    static let server: TestIdentity = try! make(commonName: "cast-test-server")
    static let other: TestIdentity = try! make(commonName: "cast-test-other")
}

func opensslPath() throws -> String {
    guard let path = RepositoryPaths.executableOnPath("openssl") else { throw TestFailure("openssl is not installed") }
    return path
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
