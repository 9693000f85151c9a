import CastCore
public import Foundation

/// One frame a virtual device received or sent, or one connection event, for the frame log.
public struct FrameLogRecord: Sendable, Equatable {
    /// Which way a frame went.
    public struct Direction: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// From a sender to the device.
        public static let inbound = Direction(rawValue: "in")
        /// From the device to a sender.
        public static let outbound = Direction(rawValue: "out")
        /// Not a frame: a connection event (opened, closed, rejected input).
        public static let event = Direction(rawValue: "event")
    }

    /// The wall-clock time of the record.
    public var time: Date
    /// The friendly name of the device.
    public var device: String
    /// The device's connection number (unique within the device's life).
    public var connection: Int
    /// In, out, or event.
    public var direction: Direction
    /// The frame's namespace (empty for events).
    public var namespace: String
    /// The frame's source ID (empty for events).
    public var source: String
    /// The frame's destination ID (empty for events).
    public var destination: String
    /// The text payload; binary payloads as `base64:…`; for events, what happened.
    public var payload: String

    /// Creates a record.
    public init(
        time: Date,
        device: String,
        connection: Int,
        direction: Direction,
        namespace: String = "",
        source: String = "",
        destination: String = "",
        payload: String
    ) {
        self.time = time
        self.device = device
        self.connection = connection
        self.direction = direction
        self.namespace = namespace
        self.source = source
        self.destination = destination
        self.payload = payload
    }

    /// A record for `message`.
    init(message: CastMessage, time: Date, device: String, connection: Int, direction: Direction) {
        let payload: String =
            if message.payloadType == .binary {
                "base64:" + Data(message.payloadBinary ?? []).base64EncodedString()
            } else {
                message.payloadUTF8 ?? ""
            }
        self.init(
            time: time,
            device: device,
            connection: connection,
            direction: direction,
            namespace: message.namespace.rawValue,
            source: message.sourceID,
            destination: message.destinationID,
            payload: payload
        )
    }

    /// The record as one line of JSON (no newline).
    public var jsonLine: String {
        let object: JSONValue = [
            "time": .string(time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))),
            "device": .string(device),
            "connection": .integer(connection),
            "direction": .string(direction.rawValue),
            "namespace": .string(namespace),
            "source": .string(source),
            "destination": .string(destination),
            "payload": .string(payload),
        ]
        return (try? JSONPayloadEncoder().encode(object)) ?? "{}"
    }
}
