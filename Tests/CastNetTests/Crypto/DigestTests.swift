import CastCrypto
import CastNet
import CastTestSupport
import Testing

@Suite struct DigestTests {
    @Test func knownAnswers() {
        // FIPS 180 "abc" vectors.
        #expect(hex(Digest.sha1(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(
            hex(Digest.sha256(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        )
        #expect(hex(Digest.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(DigestAlgorithm.sha1.digestLength == 20)
        #expect(DigestAlgorithm.sha256.hash([1]).count == 32)
    }

    @Test func randomBytes() throws {
        let first = try SecureRandom.bytes(count: 16)
        let second = try SecureRandom.bytes(count: 16)
        #expect(first.count == 16)
        #expect(first != second)
        #expect(try SecureRandom.bytes(count: 0).isEmpty)
    }
}
