/// Credentials handed to a receiver application at launch (`credentialsData`).
public struct CredentialsData: Codable, Sendable, Hashable {
    /// The credentials.
    public var credentials: String?
    /// The kind of credentials; iOS senders send `ios`.
    public var credentialsType: String?

    /// Creates a value; every optional member defaults to absent.
    public init(credentials: String? = nil, credentialsType: String? = nil) {
        self.credentials = credentials
        self.credentialsType = credentialsType
    }
}

extension CredentialsData: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            credentials: try object.decodeIfPresent("credentials"),
            credentialsType: try object.decodeIfPresent("credentialsType")
        )
    }
}

extension CredentialsData: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("credentials", credentials)
        try writer.member("credentialsType", credentialsType)
    }
}
