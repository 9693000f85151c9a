internal import COpenSSL

/// A hash function used for digests and signatures.
public struct DigestAlgorithm: Hashable, Sendable, CustomStringConvertible {
    fileprivate enum Base: Int, Sendable {
        case sha1 = 1
        case sha256 = 2
    }

    fileprivate let base: Base

    /// SHA-1 (20-byte digest). Kept for Cast device signatures, which still default to it.
    public static let sha1 = DigestAlgorithm(base: .sha1)
    /// SHA-256 (32-byte digest).
    public static let sha256 = DigestAlgorithm(base: .sha256)

    /// The stable numeric value of the algorithm.
    public var rawValue: Int { base.rawValue }

    /// The length of a digest in bytes.
    public var digestLength: Int {
        switch base {
        case .sha1: 20
        case .sha256: 32
        }
    }

    public var description: String {
        switch base {
        case .sha1: "SHA-1"
        case .sha256: "SHA-256"
        }
    }

    /// OpenSSL's method table for the algorithm (static, never freed).
    var evpMD: OpaquePointer {
        switch base {
        case .sha1: EVP_sha1()
        case .sha256: EVP_sha256()
        }
    }

    /// Hashes `bytes`.
    /// - Parameter bytes: the data to hash.
    /// - Returns: the digest, ``digestLength`` bytes.
    public func hash(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, evpMD, nil)
            }
        }
        // One-shot SHA digests fail only when memory runs out; OpenSSL then aborts elsewhere anyway.
        precondition(status == 1, "EVP_Digest failed for \(self)")
        return Array(digest.prefix(Int(length)))
    }
}

/// One-shot digests.
public enum Digest {
    /// The SHA-1 digest of `bytes` (20 bytes).
    public static func sha1(_ bytes: [UInt8]) -> [UInt8] { DigestAlgorithm.sha1.hash(bytes) }

    /// The SHA-256 digest of `bytes` (32 bytes).
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] { DigestAlgorithm.sha256.hash(bytes) }
}

/// Bytes from OpenSSL's cryptographically secure random generator.
public enum SecureRandom {
    /// Returns `count` random bytes.
    /// - Parameter count: how many bytes, from zero to `Int32.max`.
    /// - Throws: ``OpenSSLError/Code/randomGenerationFailed`` when the generator is not seeded.
    public static func bytes(count: Int) throws(OpenSSLError) -> [UInt8] {
        precondition(count >= 0 && count <= Int(Int32.max), "count out of range")
        var bytes = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return bytes }
        let status = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) }
        guard status == 1 else { throw .drainingQueue(.randomGenerationFailed, context: "RAND_bytes(\(count))") }
        return bytes
    }
}
