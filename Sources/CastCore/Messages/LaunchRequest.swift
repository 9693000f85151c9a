/// `LAUNCH` (receiver namespace): starts a receiver application.
public struct LaunchRequest: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/launch``.
    public var type: CastMessageType { .launch }

    /// The request id the reply will echo.
    public var requestId: Int?
    /// The application to launch, e.g. `CC1AD845` (the Default Media Receiver).
    public var appId: String
    /// The sender's language, e.g. `en-US`.
    public var language: String?
    /// The kinds of application the sender can talk to; `ANDROID_TV` opts in to Cast Connect.
    public var supportedAppTypes: [AppType]?
    /// Launch parameters, such as Cast Connect credentials.
    public var appParams: AppParams?
    /// The sender device name (Android senders).
    public var senderDeviceName: String?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        appId: String,
        language: String? = nil,
        supportedAppTypes: [AppType]? = nil,
        appParams: AppParams? = nil,
        senderDeviceName: String? = nil
    ) {
        self.requestId = requestId
        self.appId = appId
        self.language = language
        self.supportedAppTypes = supportedAppTypes
        self.appParams = appParams
        self.senderDeviceName = senderDeviceName
    }

    /// Launch parameters (`appParams`).
    public struct AppParams: Codable, Sendable, Hashable {
        /// What the Android TV app checks before it accepts the launch.
        public var launchCheckerParams: LaunchCheckerParams?

        /// Creates launch parameters.
        public init(launchCheckerParams: LaunchCheckerParams? = nil) {
            self.launchCheckerParams = launchCheckerParams
        }
    }

    /// What the Android TV app checks before it accepts the launch (`launchCheckerParams`).
    public struct LaunchCheckerParams: Codable, Sendable, Hashable {
        /// The launch credentials.
        public var credentialsData: CredentialsData?

        /// Creates launch checker parameters.
        public init(credentialsData: CredentialsData? = nil) {
            self.credentialsData = credentialsData
        }
    }
}

extension LaunchRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            appId: try object.decode("appId"),
            language: try object.decodeIfPresent("language"),
            supportedAppTypes: try object.decodeIfPresent("supportedAppTypes"),
            appParams: try object.decodeIfPresent("appParams"),
            senderDeviceName: try object.decodeIfPresent("senderDeviceName")
        )
    }
}

extension LaunchRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("appId", appId)
        try writer.member("language", language)
        try writer.member("supportedAppTypes", supportedAppTypes)
        try writer.member("appParams", appParams)
        try writer.member("senderDeviceName", senderDeviceName)
    }
}

extension LaunchRequest.AppParams: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(launchCheckerParams: try object.decodeIfPresent("launchCheckerParams"))
    }
}

extension LaunchRequest.LaunchCheckerParams: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(credentialsData: try object.decodeIfPresent("credentialsData"))
    }
}

extension LaunchRequest.AppParams: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("launchCheckerParams", launchCheckerParams)
    }
}

extension LaunchRequest.LaunchCheckerParams: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("credentialsData", credentialsData)
    }
}
