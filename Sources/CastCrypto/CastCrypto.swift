// CastCrypto: X.509 certificates and chain verification, RSA keys and signatures, digests,
// secure random bytes and PEM, over OpenSSL 3. No I/O: TLS lives in CastNet, on these types.
internal import COpenSSL

/// The version string of the OpenSSL library CastCrypto runs on.
public var openSSLVersion: String { String(cString: OpenSSL_version(numericCast(OPENSSL_VERSION))) }
