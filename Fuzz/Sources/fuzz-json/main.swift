// Fuzzes JSON payload decoding: the input is parsed as a JSONValue and, when it is UTF-8, decoded
// as a message of each platform namespace (connection, heartbeat, receiver, media, multizone)
// and as a setup document.
//
// Properties: parsing bytes and parsing the same text agree; a parsed value re-encodes to JSON
// that parses to an equal value and re-encodes identically; a decoded message of a known type
// encodes, and its encoding decodes to an equal message of the same namespace.

@testable import CastCore
import FuzzSupport

/// The per-namespace message enums, seen through what the target needs.
private protocol NamespaceMessage: Hashable {
    init(jsonString payload: String) throws(MessageDecodingError)
    var message: (any CastJSONMessage)? { get }
    var type: CastMessageType { get }
}

extension ConnectionMessage: NamespaceMessage {
    fileprivate var message: (any CastJSONMessage)? {
        switch self {
        case .connect(let message): message
        case .close(let message): message
        case .connected(let message): message
        case .unknown: nil
        }
    }
}

extension HeartbeatMessage: NamespaceMessage {
    fileprivate var message: (any CastJSONMessage)? {
        switch self {
        case .ping(let message): message
        case .pong(let message): message
        case .unknown: nil
        }
    }
}

extension ReceiverMessage: NamespaceMessage {}
extension MediaMessage: NamespaceMessage {}

extension MultizoneMessage: NamespaceMessage {
    fileprivate var message: (any CastJSONMessage)? {
        switch self {
        case .multizoneStatus(let message): message
        // Not CastJSONMessages: their round trip is checked by MultizoneDeviceMessageTests.
        case .deviceAdded, .deviceUpdated, .deviceRemoved, .unknown: nil
        }
    }
}

private func checkMessage<Message: NamespaceMessage>(_: Message.Type, _ text: String) {
    guard let decoded = try? Message(jsonString: text), let inner = decoded.message else { return }
    let encoded: String
    do {
        encoded = try inner.jsonString()
    } catch {
        FuzzProperty.fail("\(Message.self).\(decoded.type) decoded but does not encode: \(error)")
    }
    do {
        let again = try Message(jsonString: encoded)
        FuzzProperty.require(again == decoded, "\(Message.self): decode(encode(m)) != m for \(encoded)")
    } catch {
        FuzzProperty.fail("\(Message.self): the encoding \(encoded) does not decode: \(error)")
    }
}

private let encoder = JSONPayloadEncoder()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.run(start, count) { bytes in
        let parsed = Result { () throws(MessageDecodingError) in try JSONValue(parsing: bytes) }
        let text = String(validating: bytes, as: UTF8.self)
        if let text {
            let fromText = Result { () throws(MessageDecodingError) in try JSONValue(parsing: text) }
            switch (parsed, fromText) {
            case (.success(let a), .success(let b)):
                FuzzProperty.require(a == b, "bytes and text parse to different values")
            case (.failure(let a), .failure(let b)):
                FuzzProperty.require(a.code == b.code, "bytes and text fail differently: \(a) / \(b)")
            default:
                FuzzProperty.fail("bytes and text disagree on validity: \(parsed) / \(fromText)")
            }
        }
        if case .success(let value) = parsed {
            do {
                let encoded = try encoder.encodeToBytes(value)
                let again = try JSONValue(parsing: encoded)
                FuzzProperty.require(again == value, "a parsed value does not survive encoding")
                let reencoded = try encoder.encodeToBytes(again)
                FuzzProperty.require(reencoded == encoded, "the encoding is not stable")
            } catch {
                FuzzProperty.fail("a parsed value does not round-trip: \(error)")
            }
        }
        guard let text else { return }
        checkMessage(ConnectionMessage.self, text)
        checkMessage(HeartbeatMessage.self, text)
        checkMessage(ReceiverMessage.self, text)
        checkMessage(MediaMessage.self, text)
        checkMessage(MultizoneMessage.self, text)
        // A setup document (eureka_info) reads whatever the members hold.
        if let info = try? DeviceSetupInfo(jsonBytes: bytes) {
            _ = (info.name, info.modelName, info.manufacturer, info.deviceID, info.castBuildRevision)
            _ = info.displaySupported
        }
    }
}
