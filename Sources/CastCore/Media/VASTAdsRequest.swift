/// A VAST or VMAP ad request (`vmapAdsRequest`, `vastAdsRequest`).
public struct VASTAdsRequest: Codable, Sendable, Hashable {
    /// The URL of the ad tag.
    public var adTagUrl: String?
    /// An inline ad response, used instead of fetching the tag.
    public var adsResponse: String?

    /// Creates a value; every optional member defaults to absent.
    public init(adTagUrl: String? = nil, adsResponse: String? = nil) {
        self.adTagUrl = adTagUrl
        self.adsResponse = adsResponse
    }
}

extension VASTAdsRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            adTagUrl: try object.decodeIfPresent("adTagUrl"),
            adsResponse: try object.decodeIfPresent("adsResponse")
        )
    }
}

extension VASTAdsRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("adTagUrl", adTagUrl)
        try writer.member("adsResponse", adsResponse)
    }
}
