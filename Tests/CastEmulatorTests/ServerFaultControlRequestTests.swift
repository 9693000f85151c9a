import CastCore
import Testing

@testable import CastEmulator

@Suite struct ServerFaultControlRequestTests {
    @Test func parsesEveryMember() throws {
        let json = #"""
            {"clear": true, "ignorePings": true, "refuseLaunch": "CANCELLED", "failNextLoad": true,
             "replyDelayMs": 250, "dropConnections": true, "crashMidFrame": true, "restartApp": true, "reboot": true}
            """#
        let request = try FaultControlRequest(json: Array(json.utf8))
        #expect(
            request.clear && request.dropConnections && request.crashMidFrame && request.restartApp && request.reboot
        )
        var faults = DeviceFaults(ignoresPings: false, launchRefusal: nil, failsNextLoad: false)
        var delay = Duration.seconds(3)
        request.apply(to: &faults, replyDelay: &delay)
        #expect(faults == DeviceFaults(ignoresPings: true, launchRefusal: .cancelled, failsNextLoad: true))
        #expect(delay == .milliseconds(250))
    }

    @Test func parsesTheMisbehavingPeerActions() throws {
        let json = #"{"sendGarbage": true, "oversizeFrame": true, "trickleMs": 1000}"#
        let request = try FaultControlRequest(json: Array(json.utf8))
        #expect(request.sendGarbage && request.oversizeFrame)
        #expect(request.trickleMilliseconds == 1000)
        let none = try FaultControlRequest(json: Array("{}".utf8))
        #expect(!none.sendGarbage && !none.oversizeFrame && none.trickleMilliseconds == nil)
    }

    @Test(arguments: [
        (#"{"refuseLaunch": true}"#, LaunchErrorReason?.some(.notAllowed)),
        (#"{"refuseLaunch": false}"#, nil),
        (#"{"refuseLaunch": null}"#, nil),
    ])
    func refuseLaunchForms(json: String, expected: LaunchErrorReason?) throws {
        var faults = DeviceFaults(launchRefusal: .systemError)
        var delay = Duration.zero
        try FaultControlRequest(json: Array(json.utf8)).apply(to: &faults, replyDelay: &delay)
        #expect(faults.launchRefusal == expected)
    }

    @Test func clearResetsBeforeApplying() throws {
        var faults = DeviceFaults(ignoresPings: true, launchRefusal: .cancelled, failsNextLoad: true)
        var delay = Duration.seconds(1)
        try FaultControlRequest(json: Array(#"{"clear":true,"failNextLoad":true}"#.utf8)).apply(
            to: &faults,
            replyDelay: &delay
        )
        #expect(faults == DeviceFaults(failsNextLoad: true))
        #expect(delay == .zero)
    }

    @Test(arguments: [
        ("not json", "not JSON"),
        ("[1]", "not a JSON object"),
        (#"{"ignorePing": true}"#, "unknown member \"ignorePing\""),
        (#"{"ignorePings": 1}"#, "\"ignorePings\" must be true or false"),
        (#"{"replyDelayMs": -1}"#, "\"replyDelayMs\""),
        (#"{"replyDelayMs": 1.5}"#, "\"replyDelayMs\""),
        (#"{"replyDelayMs": 600001}"#, "\"replyDelayMs\""),
        (#"{"refuseLaunch": 3}"#, "\"refuseLaunch\""),
        (#"{"refuseLaunch": ""}"#, "\"refuseLaunch\""),
        (#"{"sendGarbage": "yes"}"#, "\"sendGarbage\" must be true or false"),
        (#"{"trickleMs": 0}"#, "\"trickleMs\""),
        (#"{"trickleMs": 600001}"#, "\"trickleMs\""),
    ])
    func rejectsInvalidBodies(json: String, mention: String) {
        do {
            _ = try FaultControlRequest(json: Array(json.utf8))
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.code == .invalidRequest)
            #expect(error.description.contains(mention), "\(error.description)")
        }
    }

    @Test func jsonReportsTheLastingFaults() {
        let json = FaultControlRequest.json(
            faults: DeviceFaults(ignoresPings: true, launchRefusal: .notAllowed),
            replyDelay: .milliseconds(40)
        )
        #expect(json["ignorePings"] == true)
        #expect(json["refuseLaunch"] == "NOT_ALLOWED")
        #expect(json["failNextLoad"] == false)
        #expect(json["replyDelayMs"] == 40)
    }
}
