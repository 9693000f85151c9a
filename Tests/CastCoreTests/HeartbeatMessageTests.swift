import Testing

@testable import CastCore

@Suite struct HeartbeatMessageTests {
    @Test(arguments: MessageFixtures.heartbeat)
    func roundTrip(payload: String) throws {
        let message = try HeartbeatMessage(jsonString: payload)
        #expect(message.type.rawValue == (try payloadType(payload)))
        switch message {
        case .ping(let ping): try expectRoundTrip(ping, payload: payload)
        case .pong(let pong): try expectRoundTrip(pong, payload: payload)
        case .unknown: Issue.record("\(payload) decoded as unknown")
        }
        #expect(try HeartbeatMessage(jsonString: message.jsonString()) == message)
    }

    @Test func pingMayCarryARequestID() throws {
        #expect(try HeartbeatMessage(jsonString: #"{"type":"PING","requestId":2}"#) == .ping(PingMessage(requestID: 2)))
        #expect(try HeartbeatMessage(jsonString: #"{"type":"PING"}"#).requestID == nil)
        #expect(try PongMessage().jsonString() == #"{"type":"PONG"}"#)
    }

    @Test func escapedMemberNamesMatch() throws {
        #expect(
            try HeartbeatMessage(jsonString: #"{"ty\u0070e":"PONG","request\u0049d":4}"#)
                == .pong(PongMessage(requestID: 4))
        )
    }

    @Test func unknownTypeIsKept() throws {
        let message = try HeartbeatMessage(jsonString: #"{"type":"PING_V2","requestId":9}"#)
        #expect(message.type == "PING_V2")
        #expect(message.requestID == 9)
    }
}
