// CastNet: sockets, TLS, timers, UDP multicast, HTTP/1.1 and the framed Cast connection.
internal import COpenSSL

/// The version string of the OpenSSL library CastNet runs on.
public var openSSLVersion: String { String(cString: OpenSSL_version(numericCast(OPENSSL_VERSION))) }
