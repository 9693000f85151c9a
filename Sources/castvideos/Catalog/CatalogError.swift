/// Why a catalog could not be loaded or understood.
struct CatalogError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Int, Sendable {
        case unreadable = 1
        case invalidJSON = 2
        case missingField = 3
        case wrongType = 4
        case invalidValue = 5
        case empty = 6
        case tooLarge = 7
        case network = 8
    }

    private let code: Code
    /// Where the problem is: a file, a URL, or a JSON path such as `categories[0].videos[2].title`.
    let location: String
    /// What was wrong, in words.
    let detail: String

    private init(_ code: Code, location: String, detail: String) {
        self.code = code
        self.location = location
        self.detail = detail
    }

    /// A stable number for the kind of failure.
    var rawValue: Int { code.rawValue }

    /// The file or URL could not be read.
    static func unreadable(_ source: String, _ detail: String) -> CatalogError {
        CatalogError(.unreadable, location: source, detail: detail)
    }

    /// The text is not JSON.
    static func invalidJSON(byteOffset: Int, _ detail: String) -> CatalogError {
        CatalogError(.invalidJSON, location: "byte \(byteOffset)", detail: detail)
    }

    /// A required member is absent.
    static func missingField(_ path: String) -> CatalogError {
        CatalogError(.missingField, location: path, detail: "required member is missing")
    }

    /// A member has the wrong JSON type.
    static func wrongType(_ path: String, expected: String) -> CatalogError {
        CatalogError(.wrongType, location: path, detail: "expected \(expected)")
    }

    /// A member has an unusable value.
    static func invalidValue(_ path: String, _ detail: String) -> CatalogError {
        CatalogError(.invalidValue, location: path, detail: detail)
    }

    /// The catalog holds no playable video.
    static let empty = CatalogError(.empty, location: "categories", detail: "the catalog has no playable video")

    /// The catalog is larger than the limit.
    static func tooLarge(_ source: String, limit: Int) -> CatalogError {
        CatalogError(.tooLarge, location: source, detail: "larger than \(limit) bytes")
    }

    /// The server declared a `Content-Length` above the limit; nothing of the body was read.
    static func tooLarge(_ source: String, limit: Int, declared: Int64) -> CatalogError {
        CatalogError(
            .tooLarge,
            location: source,
            detail: "\(declared) bytes (Content-Length), larger than \(limit) bytes"
        )
    }

    /// Fetching the catalog over the network failed.
    static func network(_ source: String, _ detail: String) -> CatalogError {
        CatalogError(.network, location: source, detail: detail)
    }

    var description: String {
        switch code {
        case .unreadable: "cannot read catalog \(location): \(detail)"
        case .invalidJSON: "catalog is not valid JSON at \(location): \(detail)"
        case .missingField: "catalog member '\(location)' is missing"
        case .wrongType: "catalog member '\(location)' has the wrong type: \(detail)"
        case .invalidValue: "catalog member '\(location)' is invalid: \(detail)"
        case .empty: detail
        case .tooLarge: "catalog \(location) is \(detail)"
        case .network: "cannot fetch catalog \(location): \(detail)"
        }
    }
}
