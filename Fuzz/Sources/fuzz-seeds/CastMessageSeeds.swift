@testable import CastCore

/// Typical messages of every platform namespace, encoded with CastCore's own encoder.
enum CastMessageSeeds {
    static var messages: [(name: String, message: CastMessage)] {
        func text(_ namespace: CastNamespace, _ json: String, to destination: String = "receiver-0") -> CastMessage {
            CastMessage(sourceID: "sender-0", destinationID: destination, namespace: namespace, text: json)
        }
        var chunked = CastMessage(
            protocolVersion: .castV2_1_3,
            sourceID: "sender-1",
            destinationID: "*",
            namespace: "urn:x-cast:com.example.custom",
            payloadType: .binary,
            payloadBinary: [0x00, 0xff, 0x10, 0x80],
            continued: true,
            remainingLength: 300
        )
        // An unknown field 15 (varint 150), kept and re-emitted.
        chunked.unknownFields = [0x78, 0x96, 0x01]
        let challenge = DeviceAuthMessage(
            challenge: AuthChallenge(senderNonce: Array(0..<16), hashAlgorithm: .sha256)
        )
        return [
            ("connect", text(.connection, #"{"type":"CONNECT","userAgent":"swift-cast","connType":0}"#)),
            ("close", text(.connection, #"{"type":"CLOSE"}"#)),
            ("ping", text(.heartbeat, #"{"type":"PING"}"#)),
            ("pong", text(.heartbeat, #"{"type":"PONG"}"#, to: "sender-0")),
            ("get-status", text(.receiver, #"{"type":"GET_STATUS","requestId":1}"#)),
            (
                "launch",
                text(.receiver, #"{"type":"LAUNCH","appId":"CC1AD845","requestId":2,"language":"en-US"}"#)
            ),
            (
                "media-load",
                text(
                    .media,
                    #"{"type":"LOAD","requestId":3,"media":{"contentId":"http://127.0.0.1/v.mp4","#
                        + #""streamType":"BUFFERED","contentType":"video/mp4","#
                        + #""metadata":{"metadataType":0,"title":"Été \u00e9 ✓ 🎬"}},"autoplay":true}"#,
                    to: "web-5"
                )
            ),
            ("multizone", text(.multizone, #"{"type":"GET_STATUS","requestId":4}"#)),
            (
                "device-auth-challenge",
                CastMessage(
                    sourceID: "sender-0",
                    destinationID: "receiver-0",
                    namespace: .deviceAuth,
                    binary: challenge.serializedBytes()
                )
            ),
            ("custom-chunked-unknown-field", chunked),
            ("empty-payload", CastMessage(sourceID: "", destinationID: "", namespace: "", payloadType: .string)),
        ]
    }

    static func seeds() -> SeedSet {
        var set = SeedSet(target: "cast-message")
        for (name, message) in messages {
            set.add(name, message.serializedBytes())
        }
        // Non-canonical but valid: fields in reverse order, and a repeated source_id.
        let reversed = CastMessage(sourceID: "a", destinationID: "b", namespace: .heartbeat, text: "{}")
        var fields: [[UInt8]] = []
        var bytes = reversed.serializedBytes()[...]
        while !bytes.isEmpty {
            // Every field of this message is a one-byte key and a short value.
            let key = bytes.removeFirst()
            var field: [UInt8] = [key]
            if key & 7 == 2 {
                let length = Int(bytes.removeFirst())
                field.append(UInt8(length))
                field += bytes.prefix(length)
                bytes.removeFirst(length)
            } else {
                field.append(bytes.removeFirst())
            }
            fields.append(field)
        }
        set.add("fields-reversed", fields.reversed().flatMap { $0 })
        set.add("repeated-field", reversed.serializedBytes() + [0x12, 0x01, 0x63])
        return set
    }
}
