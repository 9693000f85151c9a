import CastCore
import CastTestSupport
import Foundation
import Testing

/// Compares our encodings with those of the protobuf runtime used by pychromecast, whose
/// generated `cast_channel_pb2` module is built from the protocol's `.proto` file.
@Suite struct CastMessageInteropTests {
    /// Builds the same messages as ``ours`` with the Python runtime and prints one hex
    /// line per message. pychromecast's copy of the `.proto` defines only protocol
    /// version 0 and lacks `continued` and `remaining_length`, so those stay out.
    static let script = #"""
        from pychromecast.generated import cast_channel_pb2 as pb
        out = []
        m = pb.CastMessage(protocol_version=0, source_id="sender-0", destination_id="receiver-0",
                           namespace="urn:x-cast:com.google.cast.tp.heartbeat", payload_type=0,
                           payload_utf8='{"type":"PING"}')
        out.append(m)
        m = pb.CastMessage(protocol_version=0, source_id="sender-7e2e5d4a", destination_id="web-5",
                           namespace="urn:x-cast:com.google.cast.media", payload_type=0,
                           payload_utf8='{"title":"Caf\u00e9 \U0001F600","n":' + "1" * 300 + '}')
        out.append(m)
        m = pb.CastMessage(protocol_version=0, source_id="a", destination_id="*",
                           namespace="urn:x-cast:com.example", payload_type=1,
                           payload_binary=bytes(range(256)))
        out.append(m)
        d = pb.DeviceAuthMessage()
        d.challenge.signature_algorithm = 2
        d.challenge.sender_nonce = bytes(range(16))
        d.challenge.hash_algorithm = 1
        out.append(d)
        d = pb.DeviceAuthMessage()
        r = d.response
        r.signature = b"\x01" * 256
        r.client_auth_certificate = b"\x30\x82" + b"\x02" * 200
        r.intermediate_certificate.extend([b"\x03" * 130, b""])
        r.signature_algorithm = 1
        r.sender_nonce = b"\x04" * 16
        r.hash_algorithm = 0
        r.crl = b"\x05" * 3
        out.append(d)
        d = pb.DeviceAuthMessage()
        d.error.error_type = 1
        out.append(d)
        for m in out:
            print(m.SerializeToString().hex())
        """#

    static var ours: [[UInt8]] {
        let ping = CastMessage(
            sourceID: "sender-0",
            destinationID: "receiver-0",
            namespace: .heartbeat,
            text: #"{"type":"PING"}"#
        )
        let media = CastMessage(
            sourceID: "sender-7e2e5d4a",
            destinationID: "web-5",
            namespace: .media,
            text: #"{"title":"Caf\#u{E9} \#u{1F600}","n":"# + String(repeating: "1", count: 300) + "}"
        )
        let binary = CastMessage(
            sourceID: "a",
            destinationID: "*",
            namespace: "urn:x-cast:com.example",
            binary: (0...255).map { UInt8($0) }
        )
        let challenge = DeviceAuthMessage(
            challenge: AuthChallenge(
                signatureAlgorithm: .rsassaPSS,
                senderNonce: (0..<16).map { UInt8($0) },
                hashAlgorithm: .sha256
            )
        )
        let response = DeviceAuthMessage(
            response: AuthResponse(
                signature: [UInt8](repeating: 1, count: 256),
                clientAuthCertificate: [0x30, 0x82] + [UInt8](repeating: 2, count: 200),
                intermediateCertificates: [[UInt8](repeating: 3, count: 130), []],
                signatureAlgorithm: .rsassaPKCS1v15,
                senderNonce: [UInt8](repeating: 4, count: 16),
                hashAlgorithm: .sha1,
                crl: [5, 5, 5]
            )
        )
        let error = DeviceAuthMessage(error: AuthError(errorType: .noTLS))
        return [
            ping.serializedBytes(), media.serializedBytes(), binary.serializedBytes(), challenge.serializedBytes(),
            response.serializedBytes(), error.serializedBytes(),
        ]
    }

    @Test(.requires(.pythonPeers)) func encodingsMatchThePythonProtobufRuntime() async throws {
        let output = try await PythonPeer.run(script: Self.script)
        let lines = output.split(separator: "\n").map(String.init)
        let expected = Self.ours
        #expect(lines.count == expected.count)
        for (index, (line, bytes)) in zip(lines, expected).enumerated() {
            #expect(line == bytes.map { String(format: "%02x", $0) }.joined(), "message \(index)")
            // And what the Python runtime wrote, we read back to the same value.
            let theirs = try #require(PythonPeer.bytes(fromHex: line))
            if index < 3 {
                #expect(try CastMessage(serializedBytes: theirs).serializedBytes() == bytes)
            } else {
                #expect(try DeviceAuthMessage(serializedBytes: theirs).serializedBytes() == bytes)
            }
        }
    }
}

/// Runs a Python script with the interop virtual environment's interpreter.
enum PythonPeer {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The interpreter: `CAST_TEST_PYTHON`, else `<repo root>/.venv/bin/python`.
    static var interpreter: String { RepositoryPaths.python }

    /// Runs `script` and returns its standard output. The child is killed with SIGKILL
    /// if it has not finished within `deadline`.
    static func run(script: String, deadline: Duration = .seconds(30)) async throws -> String {
        guard FileManager.default.isExecutableFile(atPath: interpreter) else {
            throw Failure(description: "no Python interpreter at \(interpreter) (set CAST_TEST_PYTHON)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cast-interop-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scriptURL = directory.appendingPathComponent("script.py")
        let outputURL = directory.appendingPathComponent("stdout")
        let errorURL = directory.appendingPathComponent("stderr")
        try Data(script.utf8).write(to: scriptURL)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        let errors = try FileHandle(forWritingTo: errorURL)
        defer {
            try? output.close()
            try? errors.close()
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: interpreter)
        process.arguments = [scriptURL.path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        guard await process.waitForExit(within: deadline) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw Failure(description: "Python did not finish within \(deadline)")
        }
        let stdout = String(decoding: try Data(contentsOf: outputURL), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            let stderr = String(decoding: try Data(contentsOf: errorURL), as: UTF8.self)
            throw Failure(description: "Python exited with \(process.terminationStatus): \(stderr)")
        }
        return stdout
    }

    static func bytes(fromHex hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }
}
