/// A namespace a receiver application handles (`namespaces[]` of a running application).
///
/// Devices send `{"name": "urn:x-cast:…"}`; a plain string is accepted as well.
public struct ApplicationNamespace: Codable, Sendable, Hashable, ExpressibleByStringLiteral {
    /// The namespace, e.g. `urn:x-cast:com.google.cast.media`.
    public var name: String

    /// Creates a namespace entry.
    public init(name: String) {
        self.name = name
    }

    public init(stringLiteral value: String) {
        self.name = value
    }

    private enum CodingKeys: String, CodingKey {
        case name
    }

    public init(from decoder: any Decoder) throws {
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            self.name = name
        } else {
            self.name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
    }
}

extension ApplicationNamespace: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        if document.tokens[index].kind == .string {
            self.init(name: try String(token: index, in: document))
        } else {
            var object = try TokenObject(index, document)
            self.init(name: try object.decode("name"))
        }
    }
}

extension ApplicationNamespace: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("name", name)
    }
}
