import CastCore
import Testing

@testable import CastCommandLine

/// How `cast status` finds the group a member follows, from what the member reports.
@Suite("group following")
struct GroupFollowingTests {
    @Test func leaderHostComesFromElectedLeaderAndIsValidated() {
        #expect(GroupFollowing.leaderHost("self", memberHost: "127.0.0.9") == "127.0.0.9")
        #expect(GroupFollowing.leaderHost(nil, memberHost: "127.0.0.9") == "127.0.0.9")
        #expect(GroupFollowing.leaderHost("192.168.1.20:32187", memberHost: "127.0.0.9") == "192.168.1.20")
        // Malformed values from the member's setup document are refused, never used as a host.
        #expect(GroupFollowing.leaderHost("192.168.1.20", memberHost: "127.0.0.9") == nil)
        #expect(GroupFollowing.leaderHost("evil.example:32187", memberHost: "127.0.0.9") == nil)
        #expect(GroupFollowing.leaderHost(":32187", memberHost: "127.0.0.9") == nil)
        #expect(GroupFollowing.leaderHost("300.1.1.1:32187", memberHost: "127.0.0.9") == nil)
    }

    @Test func followerIsTheMultizoneFollowerApp() throws {
        let text = #"""
            {"type":"RECEIVER_STATUS","requestId":13,"status":{"applications":[{"appId":"531A4F84",
            "appType":"WEB","displayName":"Default Media Receiver","iconUrl":"","isIdleScreen":false,
            "launchedFromCloud":false,"senderConnected":true,"sessionId":"801dff97-6942-447b-a733-c28358e08897",
            "statusText":"Default Media Receiver","universalAppId":"CC1AD845"}],
            "volume":{"controlType":"master","level":0.10999999940395355,"muted":false,"stepInterval":0.019999999552965164}}}
            """#
        guard case .receiverStatus(let message) = try ReceiverMessage(jsonString: text) else {
            Issue.record("not a RECEIVER_STATUS")
            return
        }
        let follower = try #require(GroupFollowing.follower(in: message.status))
        #expect(follower.sessionID == "801dff97-6942-447b-a733-c28358e08897")
        var idle = message.status
        idle.applications = [ReceiverApplication(appID: "E8C28D3C", sessionID: "x")]
        #expect(GroupFollowing.follower(in: idle) == nil)
        idle.applications = nil
        #expect(GroupFollowing.follower(in: idle) == nil)
    }
}
