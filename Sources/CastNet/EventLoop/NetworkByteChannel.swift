import CastCrypto
import CastNetCore

/// A ``ByteChannel`` over a socket of an ``EventLoop``: TCP, or TLS over it. It knows its
/// addresses and, for TLS, the peer's certificate and the version agreed.
protocol NetworkByteChannel: ByteChannel {
    /// The loop that watches the socket (``ByteChannel/loop``, as the concrete type).
    var eventLoop: EventLoop { get }
    /// The local address of the socket.
    var localAddress: SocketAddress? { get }
    /// The address of the peer.
    var remoteAddress: SocketAddress? { get }
    /// The peer's certificate, for TLS channels once the handshake is done.
    var peerCertificate: Certificate? { get }
    /// The same certificate as OpenSSL holds it, not encoded: what a long-lived owner keeps,
    /// so the DER exists only while someone reads it.
    var peerCertificateReference: X509Reference? { get }
    /// The negotiated TLS version (`"TLSv1.3"`), for TLS channels.
    var tlsVersion: String? { get }
}
