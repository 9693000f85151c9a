import CastCrypto
import CastNet
import CastTestSupport

extension CastTestData {
    /// The certificates of a PEM file of the test data, leaf first.
    static func chain(_ relativePath: String) throws -> [Certificate] {
        try Certificate.certificates(pemEncoded: text(relativePath))
    }
}
