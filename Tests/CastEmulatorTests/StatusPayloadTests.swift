import CastCore
import Testing

@testable import CastEmulator

@Suite struct StatusPayloadTests {
    @Test(arguments: [0, 1, 12_345, -3])
    func replyCarriesTheRequestIDAndTheSameStatus(requestID: Int) throws {
        let status = MediaStatus(mediaSessionID: 4, playbackRate: 1.5, playerState: .paused, currentTime: 12.25)
        let payload = StatusPayload(MediaStatusMessage(requestID: 0, status: [status]))
        let reply = try MediaStatusMessage(jsonString: payload.reply(requestID: requestID))
        #expect(reply == MediaStatusMessage(requestID: requestID, status: [status]))
        let broadcast = try MediaStatusMessage(jsonString: payload.broadcast)
        #expect(broadcast.requestID == 0)
        #expect(
            payload.reply(requestID: requestID)
                == (try MediaStatusMessage(requestID: requestID, status: [status]).jsonString())
        )
    }

    @Test func receiverStatusReplies() throws {
        let payload = StatusPayload(ReceiverStatusMessage(requestID: 0, status: ReceiverStatus(applications: [])))
        let reply = try JSONValue(parsing: payload.reply(requestID: 9))
        #expect(reply == ["type": "RECEIVER_STATUS", "requestId": 9, "status": ["applications": []]])
    }
}
