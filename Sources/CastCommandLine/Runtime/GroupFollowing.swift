import CastCore
import CastNet
import CastNetCore
import CastSender

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The speaker group whose playback a member follows.
struct FollowedGroup: Sendable, Hashable {
    /// The group's name.
    var name: String
    /// The group's id, as its member lists it.
    var id: String?
    /// Where the group's Cast port is: its leader's address.
    var host: String
    /// The group's Cast port (32xxx on hardware).
    var port: Int
    /// The app ids the group runs.
    var applicationIDs: [String]
}

/// Finds the group a member plays in.
///
/// On hardware, a member of a playing group runs the multizone follower app (`531A4F84`,
/// `universalAppId` `CC1AD845`) with no namespaces and no transport: its media cannot be
/// asked for on the member. The member's setup document (`/setup/eureka_info`,
/// `multizone.groups`) names its groups with their leader and Cast port; the group whose
/// `RECEIVER_STATUS` runs the follower's session id is the one it follows, and the group's
/// media session is the member's media.
enum GroupFollowing {
    /// The app a member of a playing group runs.
    static let followerAppID = "531A4F84"

    /// The follower app in a member's `RECEIVER_STATUS`, if it runs one.
    static func follower(in status: ReceiverStatus) -> ReceiverApplication? {
        status.applications?.first { $0.appID == followerAppID }
    }

    /// The group of the member at `memberHost` whose app session is `sessionId`, or `nil`
    /// when the member serves no setup document or none of its groups runs that session.
    /// Each group's status is read through `sessionManager`, without starting a session.
    static func group(
        following sessionID: String,
        memberHost: String,
        sessionManager: SessionManager,
        timeout: Duration
    ) async -> FollowedGroup? {
        var client = HTTPClient()
        client.timeout = timeout
        client.maximumBodySize = 256 << 10
        let authority = memberHost.contains(":") ? "[\(memberHost)]:8008" : "\(memberHost):8008"
        guard
            let response = try? await client.get("http://\(authority)/setup/eureka_info?params=name,multizone"),
            response.status.code == 200,
            let info = try? DeviceSetupInfo(jsonBytes: response.body)
        else { return nil }
        for group in info.groups {
            guard let port = group.castPort, let castPort = UInt16(exactly: port),
                let host = leaderHost(group.electedLeader, memberHost: memberHost), let address = IPAddress(host)
            else { continue }
            let leader = CastDevice(
                id: group.id ?? UUID(),
                friendlyName: group.name,
                addresses: [address],
                port: castPort
            )
            guard let status = try? await sessionManager.receiverStatus(of: leader, timeout: timeout),
                let apps = status.applications, apps.contains(where: { $0.sessionID == sessionID })
            else { continue }
            return FollowedGroup(
                name: group.name,
                id: group.id.map { $0.uuidString.lowercased() },
                host: host,
                port: port,
                applicationIDs: apps.map(\.appID)
            )
        }
        return nil
    }

    /// The leader's address from `elected_leader`: `self` (or nothing) is the member itself,
    /// else `ADDRESS:PORT`; anything that is not an IPv4 address is refused.
    static func leaderHost(_ electedLeader: String?, memberHost: String) -> String? {
        guard let electedLeader, electedLeader != "self" else { return memberHost }
        guard let colon = electedLeader.lastIndex(of: ":") else { return nil }
        let host = String(electedLeader[..<colon])
        return IPAddress(host) == nil ? nil : host
    }
}
