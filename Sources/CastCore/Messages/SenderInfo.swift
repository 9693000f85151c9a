/// Describes the sender in `CONNECT` (`senderInfo`).
public struct SenderInfo: Codable, Sendable, Hashable {
    /// The sender SDK kind; Chrome and pychromecast send 2.
    public var sdkType: Int?
    /// The sender version.
    public var version: String?
    /// The browser version.
    public var browserVersion: String?
    /// The sender platform: Windows 3, macOS 4, ChromeOS 5, Linux 6, otherwise 0.
    public var platform: Int?
    /// The connection kind; 1 is local.
    public var connectionType: Int?
    /// The operating system version.
    public var systemVersion: String?

    /// Creates a value; every optional member defaults to absent.
    public init(
        sdkType: Int? = nil,
        version: String? = nil,
        browserVersion: String? = nil,
        platform: Int? = nil,
        connectionType: Int? = nil,
        systemVersion: String? = nil
    ) {
        self.sdkType = sdkType
        self.version = version
        self.browserVersion = browserVersion
        self.platform = platform
        self.connectionType = connectionType
        self.systemVersion = systemVersion
    }
}

extension SenderInfo: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            sdkType: try object.decodeIfPresent("sdkType"),
            version: try object.decodeIfPresent("version"),
            browserVersion: try object.decodeIfPresent("browserVersion"),
            platform: try object.decodeIfPresent("platform"),
            connectionType: try object.decodeIfPresent("connectionType"),
            systemVersion: try object.decodeIfPresent("systemVersion")
        )
    }
}

extension SenderInfo: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("sdkType", sdkType)
        try writer.member("version", version)
        try writer.member("browserVersion", browserVersion)
        try writer.member("platform", platform)
        try writer.member("connectionType", connectionType)
        try writer.member("systemVersion", systemVersion)
    }
}
