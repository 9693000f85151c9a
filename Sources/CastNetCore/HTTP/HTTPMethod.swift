/// An HTTP request method.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token as sent on the wire, such as `GET`.
    public let rawValue: String

    /// Creates a method from its token.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `GET`.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`: like `GET`, without the body.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `DELETE`.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`.
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    public var description: String { rawValue }
}
