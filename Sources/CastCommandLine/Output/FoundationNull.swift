import Foundation

/// The JSON null for `JSONSerialization`.
enum FoundationNull {
    static var value: Any { NSNull() }
}
