import CastCrypto
import CastTestSupport
import Testing

@testable import CastNet

/// The TLS engine back to back in memory: no socket, every byte passed by hand.
@Suite(.requires(.openssl)) struct TLSEngineTests {
    /// Moves ciphertext between two engines until neither has anything to send;
    /// `chunk` limits how many bytes are passed at a time.
    private func pump(_ a: TLSEngine, _ b: TLSEngine, chunk: Int = .max) {
        var moved = true
        while moved {
            moved = false
            for (from, to) in [(a, b), (b, a)] {
                guard let bytes = from.takeCiphertext() else { continue }
                moved = true
                var offset = 0
                while offset < bytes.count {
                    let end = min(bytes.count, offset + chunk)
                    bytes[offset..<end].withUnsafeBytes { to.receive(ciphertext: $0) }
                    offset = end
                    _ = to.handshake()
                }
                _ = from.handshake()
            }
        }
    }

    private func makePair(
        client: TLSClientConfiguration = TLSClientConfiguration(),
        server: TLSServerConfiguration = TestIdentity.server.serverConfiguration
    ) throws -> (TLSEngine, TLSEngine) {
        let clientEngine = try TLSEngine(context: TLSContext(client: client))
        let serverEngine = try TLSEngine(context: TLSContext(server: server))
        return (clientEngine, serverEngine)
    }

    private func readAll(_ engine: TLSEngine) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let outcome = buffer.withUnsafeMutableBytes { engine.read(into: $0) }
            guard case .bytes(let count) = outcome else { return result }
            result += buffer[0..<count]
        }
    }

    @Test(arguments: [TLSVersion.v1_2, .v1_3])
    func handshakesAndCarriesDataBothWays(version: TLSVersion) throws {
        var client = TLSClientConfiguration()
        client.minimumVersion = version
        client.maximumVersion = version
        let (clientEngine, serverEngine) = try makePair(client: client)
        #expect(clientEngine.handshake() == .needsInput)
        pump(clientEngine, serverEngine)
        #expect(clientEngine.handshake() == .complete)
        #expect(serverEngine.handshake() == .complete)
        #expect(clientEngine.protocolVersion == (version == .v1_3 ? "TLSv1.3" : "TLSv1.2"))
        #expect(clientEngine.peerCertificate?.derBytes == (try TestIdentity.server.certificateDER()))

        let request = Array("ping from the sender".utf8)
        #expect(request.withUnsafeBytes { clientEngine.write($0) } == nil)
        pump(clientEngine, serverEngine)
        #expect(readAll(serverEngine) == request)

        let reply = (0..<100_000).map { UInt8(truncatingIfNeeded: $0) }
        #expect(reply.withUnsafeBytes { serverEngine.write($0) } == nil)
        pump(clientEngine, serverEngine)
        #expect(readAll(clientEngine) == reply)
    }

    /// An idle session holds no ciphertext buffers: the queues free their storage once
    /// everything received was read and everything encrypted was taken.
    @Test(arguments: [TLSVersion.v1_2, .v1_3])
    func anIdleSessionHoldsNoCiphertextStorage(version: TLSVersion) throws {
        var client = TLSClientConfiguration()
        client.minimumVersion = version
        client.maximumVersion = version
        let (clientEngine, serverEngine) = try makePair(client: client)
        _ = clientEngine.handshake()
        pump(clientEngine, serverEngine)
        #expect(serverEngine.handshake() == .complete)

        let status = [UInt8](repeating: UInt8(ascii: "s"), count: 2_300)
        #expect(status.withUnsafeBytes { serverEngine.write($0) } == nil)
        // Encrypted and not taken yet: the write queue holds the record.
        #expect(serverEngine.queueStorageBytes >= status.count)
        let record = try #require(serverEngine.takeCiphertext())
        #expect(serverEngine.queueStorageBytes == 0)

        // Received in two parts: the first half waits in the read queue until OpenSSL reads
        // it into its record buffer, which frees the queue's storage.
        let half = record.count / 2
        record[..<half].withUnsafeBytes { clientEngine.receive(ciphertext: $0) }
        #expect(clientEngine.queueStorageBytes >= half)
        #expect(readAll(clientEngine).isEmpty)
        #expect(clientEngine.queueStorageBytes == 0)
        record[half...].withUnsafeBytes { clientEngine.receive(ciphertext: $0) }
        #expect(readAll(clientEngine) == status)
        #expect(clientEngine.queueStorageBytes == 0)
        _ = clientEngine.takeCiphertext()
        #expect(clientEngine.queueStorageBytes == 0)
    }

    @Test func handshakeSurvivesByteAtATimeDelivery() throws {
        let (clientEngine, serverEngine) = try makePair()
        _ = clientEngine.handshake()
        pump(clientEngine, serverEngine, chunk: 1)
        #expect(clientEngine.handshake() == .complete)
        #expect(serverEngine.handshake() == .complete)
        let message = Array("one byte at a time".utf8)
        _ = message.withUnsafeBytes { clientEngine.write($0) }
        pump(clientEngine, serverEngine, chunk: 1)
        #expect(readAll(serverEngine) == message)
    }

    @Test func serverRejectsGarbageInsteadOfClientHello() throws {
        let serverEngine = try TLSEngine(context: TLSContext(server: TestIdentity.server.serverConfiguration))
        let garbage = Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        garbage.withUnsafeBytes { serverEngine.receive(ciphertext: $0) }
        guard case .failed(let error) = serverEngine.handshake() else {
            Issue.record("garbage was accepted")
            return
        }
        #expect(error.code == .handshakeFailed)
        #expect(!error.reason.isEmpty)
    }

    @Test func clientRejectsGarbageInsteadOfServerHello() throws {
        let clientEngine = try TLSEngine(context: TLSContext(client: TLSClientConfiguration()))
        _ = clientEngine.handshake()
        let garbage = [UInt8](repeating: 0x17, count: 64)
        garbage.withUnsafeBytes { clientEngine.receive(ciphertext: $0) }
        guard case .failed(let error) = clientEngine.handshake() else {
            Issue.record("garbage was accepted")
            return
        }
        #expect(error.code == .handshakeFailed)
    }

    @Test func verificationAcceptsTheTrustedRootAndName() throws {
        var client = TLSClientConfiguration()
        client.verification = .trustRoots([TestIdentity.server.certificate])
        client.serverName = "cast-test-server"
        let (clientEngine, serverEngine) = try makePair(client: client)
        _ = clientEngine.handshake()
        pump(clientEngine, serverEngine)
        #expect(clientEngine.handshake() == .complete)
    }

    @Test func verificationRejectsAnUntrustedCertificate() throws {
        var client = TLSClientConfiguration()
        client.verification = try .trustRoots(pem: TestIdentity.other.certificatePEM)
        let (clientEngine, serverEngine) = try makePair(client: client)
        _ = clientEngine.handshake()
        pump(clientEngine, serverEngine)
        guard case .failed(let error) = clientEngine.handshake() else {
            Issue.record("untrusted certificate was accepted")
            return
        }
        #expect(error.code == .certificateRejected)
    }

    @Test func verificationRejectsTheWrongName() throws {
        var client = TLSClientConfiguration()
        client.verification = .trustRoots([TestIdentity.server.certificate])
        client.serverName = "some-other-name"
        let (clientEngine, serverEngine) = try makePair(client: client)
        _ = clientEngine.handshake()
        pump(clientEngine, serverEngine)
        guard case .failed(let error) = clientEngine.handshake() else {
            Issue.record("wrong name was accepted")
            return
        }
        #expect(error.code == .certificateRejected)
    }

    @Test func versionMismatchFailsTheHandshake() throws {
        var client = TLSClientConfiguration()
        client.maximumVersion = .v1_2
        var server = TestIdentity.server.serverConfiguration
        server.minimumVersion = .v1_3
        let (clientEngine, serverEngine) = try makePair(client: client, server: server)
        _ = clientEngine.handshake()
        pump(clientEngine, serverEngine)
        #expect(clientEngine.handshake() != .complete)
        #expect(serverEngine.handshake() != .complete)
    }

    @Test func closeNotifyEndsTheStream() throws {
        let (clientEngine, serverEngine) = try makePair()
        _ = clientEngine.handshake()
        pump(clientEngine, serverEngine)
        serverEngine.shutdown()
        pump(clientEngine, serverEngine)
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(buffer.withUnsafeMutableBytes { clientEngine.read(into: $0) } == .closed)
    }

    @Test func tamperedRecordIsAProtocolError() throws {
        let (clientEngine, serverEngine) = try makePair()
        _ = clientEngine.handshake()
        pump(clientEngine, serverEngine)
        _ = readAll(clientEngine)
        _ = Array("secret".utf8).withUnsafeBytes { clientEngine.write($0) }
        var record = try #require(clientEngine.takeCiphertext())
        record[record.count - 1] ^= 0xFF
        record.withUnsafeBytes { serverEngine.receive(ciphertext: $0) }
        var buffer = [UInt8](repeating: 0, count: 64)
        guard case .failed(let error) = buffer.withUnsafeMutableBytes({ serverEngine.read(into: $0) }) else {
            Issue.record("tampered record was accepted")
            return
        }
        #expect(error.code == .protocolError)
    }

    @Test func badServerMaterialIsAConfigurationError() throws {
        #expect {
            try TLSServerConfiguration(certificateChainPEM: "nothing", privateKeyPEM: TestIdentity.server.keyPEM)
        } throws: { error in
            (error as? TLSError)?.code == .invalidConfiguration
        }
        #expect {
            try TLSServerConfiguration(certificateChainPEM: TestIdentity.server.certificatePEM, privateKeyPEM: "x")
        } throws: { error in
            (error as? TLSError)?.code == .invalidConfiguration
        }
        let mismatched = try TLSServerConfiguration(
            certificateChainPEM: TestIdentity.server.certificatePEM,
            privateKeyPEM: TestIdentity.other.keyPEM
        )
        #expect {
            try TLSContext(server: mismatched)
        } throws: { error in
            (error as? TLSError)?.code == .invalidConfiguration
        }
    }

    @Test func serverRunsOnAGeneratedSelfSignedCertificate() throws {
        let identity = try SelfSignedCertificate.generate(commonName: "virtual-device")
        let clientEngine = try TLSEngine(context: TLSContext(client: TLSClientConfiguration()))
        let serverEngine = try TLSEngine(context: TLSContext(server: TLSServerConfiguration(identity)))
        _ = clientEngine.handshake()
        pump(clientEngine, serverEngine)
        #expect(clientEngine.handshake() == .complete)
        #expect(clientEngine.peerCertificate == identity.certificate)
    }
}
