import Testing

@testable import CastCore

@Suite struct ConnectionMessageTests {
    @Test(arguments: MessageFixtures.connection)
    func roundTrip(payload: String) throws {
        let message = try ConnectionMessage(jsonString: payload)
        #expect(message.type.rawValue == (try payloadType(payload)))
        switch message {
        case .connect(let connect): try expectRoundTrip(connect, payload: payload)
        case .close(let close): try expectRoundTrip(close, payload: payload)
        case .connected(let connected): try expectRoundTrip(connected, payload: payload)
        case .unknown: Issue.record("\(payload) decoded as unknown")
        }
        #expect(message.message != nil)
        #expect(try ConnectionMessage(jsonString: message.jsonString()) == message)
    }

    @Test func pychromecastConnect() throws {
        let message = try ConnectionMessage(jsonString: MessageFixtures.connection[0])
        guard case .connect(let connect) = message else {
            Issue.record("not a CONNECT: \(message)")
            return
        }
        #expect(connect.userAgent == "PyChromecast")
        #expect(connect.origin == [:])
        #expect(connect.senderInfo?.sdkType == 2)
        #expect(connect.senderInfo?.platform == 4)
        #expect(connect.senderInfo?.connectionType == 1)
        #expect(connect.connType == nil)
        #expect(connect.requestID == nil)
    }

    @Test func encodesMinimalConnectAndClose() throws {
        #expect(try ConnectMessage().jsonString() == #"{"type":"CONNECT"}"#)
        #expect(try CloseMessage(reasonCode: .closedBySelf).jsonString() == #"{"type":"CLOSE","reasonCode":5}"#)
        let connect = ConnectMessage(connType: .invisible, protocolVersion: 1)
        #expect(try connect.jsonString() == #"{"type":"CONNECT","connType":2,"protocolVersion":1}"#)
    }

    @Test func keepsUnknownTypes() throws {
        let message = try ConnectionMessage(jsonString: #"{"type":"PAUSE_CONNECTION","extra":[1,2]}"#)
        #expect(
            message
                == .unknown(
                    UnknownMessage(type: "PAUSE_CONNECTION", payload: ["type": "PAUSE_CONNECTION", "extra": [1, 2]])
                )
        )
        #expect(message.type == "PAUSE_CONNECTION")
        #expect(message.message == nil)
        #expect(try message.jsonString() == #"{"extra":[1,2],"type":"PAUSE_CONNECTION"}"#)
    }

    @Test func unknownCloseReasonIsKept() throws {
        guard case .close(let close) = try ConnectionMessage(jsonString: #"{"type":"CLOSE","reasonCode":42}"#) else {
            Issue.record("not a CLOSE")
            return
        }
        #expect(close.reasonCode == CloseReason(rawValue: 42))
    }
}
