internal import COpenSSL

/// An error from a cryptographic operation: parsing a certificate or key, signing, generating.
///
/// When OpenSSL reported the failure, ``openSSLErrors`` holds the messages drained from its
/// per-thread error queue (oldest first). They are context for people and take no part in `==`.
public struct OpenSSLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable identifiers for each kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case malformedPEM = 1
            case malformedCertificate = 2
            case malformedKey = 3
            case unsupportedKey = 4
            case keyGenerationFailed = 5
            case signingFailed = 6
            case certificateCreationFailed = 7
            case randomGenerationFailed = 8
            case digestFailed = 9
            case encodingFailed = 10
            case verificationSetupFailed = 11
        }

        fileprivate let base: Base

        /// Text that should hold PEM blocks has none, or a block is cut short or not base64.
        public static let malformedPEM = Code(base: .malformedPEM)
        /// Bytes are not a DER-encoded X.509 certificate.
        public static let malformedCertificate = Code(base: .malformedCertificate)
        /// Bytes are not a private or public key OpenSSL can read.
        public static let malformedKey = Code(base: .malformedKey)
        /// The key is of a type or size the operation does not support.
        public static let unsupportedKey = Code(base: .unsupportedKey)
        /// Key generation failed.
        public static let keyGenerationFailed = Code(base: .keyGenerationFailed)
        /// Producing a signature failed.
        public static let signingFailed = Code(base: .signingFailed)
        /// Building or signing a certificate failed.
        public static let certificateCreationFailed = Code(base: .certificateCreationFailed)
        /// The random generator could not produce bytes.
        public static let randomGenerationFailed = Code(base: .randomGenerationFailed)
        /// Computing a digest failed.
        public static let digestFailed = Code(base: .digestFailed)
        /// Encoding a certificate or key to DER or PEM failed.
        public static let encodingFailed = Code(base: .encodingFailed)
        /// Setting up a certificate-chain verification failed (out of memory, bad anchor).
        public static let verificationSetupFailed = Code(base: .verificationSetupFailed)

        /// The stable numeric value of the code.
        public var rawValue: Int { base.rawValue }

        public var description: String {
            switch base {
            case .malformedPEM: "malformedPEM"
            case .malformedCertificate: "malformedCertificate"
            case .malformedKey: "malformedKey"
            case .unsupportedKey: "unsupportedKey"
            case .keyGenerationFailed: "keyGenerationFailed"
            case .signingFailed: "signingFailed"
            case .certificateCreationFailed: "certificateCreationFailed"
            case .randomGenerationFailed: "randomGenerationFailed"
            case .digestFailed: "digestFailed"
            case .encodingFailed: "encodingFailed"
            case .verificationSetupFailed: "verificationSetupFailed"
            }
        }
    }

    /// What went wrong.
    public let code: Code
    /// What was being done, and where (for example "PEM block 2 (CERTIFICATE)").
    public let context: String
    /// The messages OpenSSL queued for this failure, oldest first; empty when OpenSSL said nothing.
    public let openSSLErrors: [String]

    /// Creates an error.
    /// - Parameters:
    ///   - code: what went wrong.
    ///   - context: what was being done, and where.
    ///   - openSSLErrors: messages from OpenSSL's error queue.
    public init(_ code: Code, context: String, openSSLErrors: [String] = []) {
        self.code = code
        self.context = context
        self.openSSLErrors = openSSLErrors
    }

    public static func == (lhs: OpenSSLError, rhs: OpenSSLError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String {
        var text = "\(code): \(context)"
        if !openSSLErrors.isEmpty {
            text += " (OpenSSL: \(openSSLErrors.joined(separator: "; ")))"
        }
        return text
    }

    /// Builds an error carrying, and clearing, whatever OpenSSL queued on this thread.
    static func drainingQueue(_ code: Code, context: String) -> OpenSSLError {
        OpenSSLError(code, context: context, openSSLErrors: OpenSSLErrorQueue.drain())
    }
}

/// OpenSSL's per-thread error queue.
package enum OpenSSLErrorQueue {
    /// Removes every queued error and returns their messages, oldest first.
    ///
    /// At most 64 entries are kept, which bounds the work when a caller forgot to drain.
    package static func drain() -> [String] {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            if messages.count < 64 {
                var buffer = [CChar](repeating: 0, count: 256)
                ERR_error_string_n(code, &buffer, buffer.count)
                messages.append(
                    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                )
            }
        }
        return messages
    }

    /// Discards every queued error.
    package static func clear() {
        ERR_clear_error()
    }
}
