import CastCrypto
import CastNet
import Testing

@Suite struct PEMBlockTests {
    @Test func readsBlocksAndSkipsSurroundingText() throws {
        let text = """
            Some text before.
            $ openssl x509 -text
            -----BEGIN MESSAGE-----
            U1RSSU5H
            -----END MESSAGE-----\u{20}\u{20}
            between
            -----BEGIN OTHER-----
            AAEC
            -----END OTHER-----
            after
            """
        let blocks = try PEMBlock.blocks(in: text)
        #expect(
            blocks == [
                PEMBlock(label: "MESSAGE", bytes: Array("STRING".utf8)),
                PEMBlock(label: "OTHER", bytes: [0, 1, 2]),
            ]
        )
    }

    @Test func roundTripsThroughPEMString() throws {
        let block = PEMBlock(label: "DATA", bytes: (0..<200).map { UInt8($0) })
        let text = block.pemString
        #expect(text.hasPrefix("-----BEGIN DATA-----\n"))
        #expect(text.hasSuffix("-----END DATA-----\n"))
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 64 })
        #expect(try PEMBlock.blocks(in: text) == [block])
    }

    /// A PEM file saved with Windows line ends (CRLF) reads as the same blocks: Swift treats
    /// "\r\n" as one character, so splitting on "\n" alone once saw one long line and no block.
    @Test func readsWindowsLineEnds() throws {
        let block = PEMBlock(label: "CERTIFICATE", bytes: (0..<100).map { UInt8($0) })
        let crlf = "header\r\n" + block.pemString.replacing("\n", with: "\r\n") + "\r\n"
        #expect(crlf.contains("\r\n"))
        #expect(try PEMBlock.blocks(in: crlf) == [block])
    }

    @Test func noBlocksGivesEmptyList() throws {
        #expect(try PEMBlock.blocks(in: "just text\nno pem here").isEmpty)
        #expect(try PEMBlock.blocks(in: "").isEmpty)
    }

    @Test(arguments: [
        "-----BEGIN X-----\nAAAA\n",
        "-----BEGIN X-----\nAAAA\n-----END Y-----\n",
        "-----BEGIN X-----\n!!!!\n-----END X-----\n",
        "-----BEGIN X-----\nProc-Type: 4,ENCRYPTED\nAAAA\n-----END X-----\n",
    ])
    func malformedBlocksThrow(text: String) {
        #expect(throws: OpenSSLError.malformedPEMSample) { try PEMBlock.blocks(in: text) }
    }
}

extension OpenSSLError {
    static let malformedPEMSample = OpenSSLError(.malformedPEM, context: "")
    static let malformedCertificateSample = OpenSSLError(.malformedCertificate, context: "")
    static let malformedKeySample = OpenSSLError(.malformedKey, context: "")
}
