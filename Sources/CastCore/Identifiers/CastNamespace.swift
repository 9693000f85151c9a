/// A Cast message namespace such as `urn:x-cast:com.google.cast.media`.
///
/// The platform's namespaces are static constants. Applications use their own under
/// `urn:x-cast:`; ``init(custom:)`` and ``isCustom`` check that form. Any string read
/// from the wire is accepted as a namespace.
public struct CastNamespace: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The prefix every Cast namespace starts with.
    public static let prefix = "urn:x-cast:"
    /// The prefix of the namespaces defined by the Cast platform.
    public static let reservedPrefix = "urn:x-cast:com.google.cast."
    /// The prefix of the namespaces of Google's sample receiver apps (the codelab's text
    /// channel is `urn:x-cast:com.google.cast.sample.helloworld`): app namespaces, though
    /// under ``reservedPrefix``.
    public static let samplePrefix = "urn:x-cast:com.google.cast.sample."

    /// The namespace string.
    public var rawValue: String

    /// Creates a namespace from any string.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a namespace from a string literal.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// Creates an application namespace, or returns `nil` when `rawValue` is not a valid
    /// custom namespace (see ``isCustom``).
    public init?(custom rawValue: String) {
        self.rawValue = rawValue
        guard isCustom else { return nil }
    }

    /// `urn:x-cast:com.google.cast.tp.connection`: virtual connections (CONNECT, CLOSE).
    public static let connection: CastNamespace = "urn:x-cast:com.google.cast.tp.connection"
    /// `urn:x-cast:com.google.cast.tp.heartbeat`: PING and PONG.
    public static let heartbeat: CastNamespace = "urn:x-cast:com.google.cast.tp.heartbeat"
    /// `urn:x-cast:com.google.cast.tp.deviceauth`: the binary device-auth exchange.
    public static let deviceAuth: CastNamespace = "urn:x-cast:com.google.cast.tp.deviceauth"
    /// `urn:x-cast:com.google.cast.receiver`: launching and stopping apps, volume, status.
    public static let receiver: CastNamespace = "urn:x-cast:com.google.cast.receiver"
    /// `urn:x-cast:com.google.cast.media`: media control.
    public static let media: CastNamespace = "urn:x-cast:com.google.cast.media"
    /// `urn:x-cast:com.google.cast.multizone`: speaker groups.
    public static let multizone: CastNamespace = "urn:x-cast:com.google.cast.multizone"
    /// `urn:x-cast:com.google.cast.setup`: device setup information.
    public static let setup: CastNamespace = "urn:x-cast:com.google.cast.setup"
    /// `urn:x-cast:com.google.cast.receiver.discovery`: device information.
    public static let discovery: CastNamespace = "urn:x-cast:com.google.cast.receiver.discovery"

    /// Whether the namespace lies under the platform's reserved prefix
    /// `urn:x-cast:com.google.cast.` (and is not a sample app's, ``samplePrefix``).
    public var isReserved: Bool {
        guard rawValue.hasPrefix(Self.reservedPrefix) else { return false }
        return !(rawValue.hasPrefix(Self.samplePrefix) && rawValue.utf8.count > Self.samplePrefix.utf8.count)
    }

    /// Whether the namespace is a valid application namespace: it starts with
    /// `urn:x-cast:`, has a name after the prefix, is not under the reserved prefix, is
    /// at most 128 bytes, and holds only printable ASCII without spaces.
    public var isCustom: Bool {
        let utf8 = rawValue.utf8
        guard rawValue.hasPrefix(Self.prefix), !isReserved else { return false }
        guard utf8.count > Self.prefix.utf8.count, utf8.count <= 128 else { return false }
        return utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    public var description: String { rawValue }
}

extension CastNamespace {
    private static let platformNamespaces: [CastNamespace] = [
        .media, .receiver, .heartbeat, .connection, .deviceAuth, .multizone, .setup, .discovery,
    ]

    /// Returns the platform namespace whose UTF-8 is exactly `utf8`, or `nil`.
    ///
    /// Decoding reuses the constants' storage instead of allocating a new string for
    /// the namespace of nearly every message.
    static func platformNamespace(matching utf8: UnsafeBufferPointer<UInt8>) -> CastNamespace? {
        for namespace in platformNamespaces where namespace.rawValue.utf8.count == utf8.count {
            let equal = namespace.rawValue.utf8.withContiguousStorageIfAvailable {
                ProtobufReader.bytesEqual($0, utf8)
            }
            if equal == true {
                return namespace
            }
        }
        return nil
    }
}
