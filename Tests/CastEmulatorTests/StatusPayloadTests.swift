import CastCore
import Testing

@testable import CastEmulator

@Suite struct StatusPayloadTests {
    @Test(arguments: [0, 1, 12_345, -3])
    func replyCarriesTheRequestIdAndTheSameStatus(requestId: Int) throws {
        let status = MediaStatus(mediaSessionId: 4, playbackRate: 1.5, playerState: .paused, currentTime: 12.25)
        let payload = StatusPayload(MediaStatusMessage(requestId: 0, status: [status]))
        let reply = try MediaStatusMessage(jsonString: payload.reply(requestId: requestId))
        #expect(reply == MediaStatusMessage(requestId: requestId, status: [status]))
        let broadcast = try MediaStatusMessage(jsonString: payload.broadcast)
        #expect(broadcast.requestId == 0)
        #expect(
            payload.reply(requestId: requestId)
                == (try MediaStatusMessage(requestId: requestId, status: [status]).jsonString())
        )
    }

    @Test func receiverStatusReplies() throws {
        let payload = StatusPayload(ReceiverStatusMessage(requestId: 0, status: ReceiverStatus(applications: [])))
        let reply = try JSONValue(parsing: payload.reply(requestId: 9))
        #expect(reply == ["type": "RECEIVER_STATUS", "requestId": 9, "status": ["applications": []]])
    }
}
