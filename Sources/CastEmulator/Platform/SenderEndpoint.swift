/// One sender endpoint: a source id (e.g. `sender-0`) on one TLS connection.
struct SenderEndpoint: Hashable, Sendable, CustomStringConvertible {
    var connection: ConnectionID
    var senderID: String

    var description: String { "\(connection)/\(senderID)" }
}
