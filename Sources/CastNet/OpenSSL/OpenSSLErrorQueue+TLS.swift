import CastCrypto

extension OpenSSLErrorQueue {
    /// Empties the queue and returns its entries as one line, or `fallback` when empty.
    static func drainText(or fallback: String) -> String {
        let messages = drain()
        return messages.isEmpty ? fallback : messages.joined(separator: "; ")
    }
}

extension TLSError {
    /// A configuration error carrying the failure of the crypto layer.
    init(configuration error: OpenSSLError, what: String) {
        self.init(code: .invalidConfiguration, reason: "\(what): \(error)")
    }
}
