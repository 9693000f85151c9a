import Testing

@testable import CastCore

@Suite struct ReceiverMessageTests {
    @Test(arguments: MessageFixtures.receiver)
    func roundTrip(payload: String) throws {
        let message = try ReceiverMessage(jsonString: payload)
        #expect(message.type.rawValue == (try payloadType(payload)))
        let typed = try #require(message.message, "\(payload) decoded as unknown")
        try expectRoundTrip(typed, payload: payload)
        #expect(try ReceiverMessage(jsonString: message.jsonString()) == message)
    }

    @Test func coversEveryReceiverMessageType() throws {
        let types = Set(try MessageFixtures.receiver.map { try ReceiverMessage(jsonString: $0).type })
        let expected: Set<CastMessageType> = [
            .getStatus, .launch, .stop, .setVolume, .getAppAvailability, .receiverStatus, .launchError,
            .launchStatus, .invalidRequest,
        ]
        #expect(types == expected)
    }

    @Test func defaultMediaReceiverStatus() throws {
        guard case .receiverStatus(let message) = try ReceiverMessage(jsonString: MessageFixtures.receiverStatus) else {
            Issue.record("not a RECEIVER_STATUS")
            return
        }
        #expect(message.requestID == 0)
        let application = try #require(message.status.applications?.first)
        #expect(application.appID == "CC1AD845")
        #expect(application.appType == .web)
        #expect(application.displayName == "Default Media Receiver")
        #expect(application.transportID == "7E2FF513-CDF6-9A91-2B28-3E3DE7BAC174")
        #expect(application.supports(namespace: "urn:x-cast:com.google.cast.media"))
        #expect(!application.supports(namespace: "urn:x-cast:com.example"))
        #expect(message.status.isActiveInput == true)
        #expect(message.status.userEq == [:])
        #expect(
            message.status.volume
                == DeviceVolume(controlType: .attenuation, level: 1, muted: false, stepInterval: 0.05)
        )
    }

    @Test func namespacesMayBePlainStrings() throws {
        let payload =
            #"{"type":"RECEIVER_STATUS","status":{"applications":[{"appId":"X","namespaces":["urn:x-cast:a",{"name":"urn:x-cast:b"}]}]}}"#
        guard case .receiverStatus(let message) = try ReceiverMessage(jsonString: payload) else {
            Issue.record("not a RECEIVER_STATUS")
            return
        }
        #expect(message.status.applications?.first?.namespaces == ["urn:x-cast:a", "urn:x-cast:b"])
        var codablePath = JSONPayloadDecoder()
        codablePath.usesTokenDecodable = false
        #expect(try codablePath.decode(ReceiverStatusMessage.self, from: payload) == message)
    }

    @Test func castConnectLaunch() throws {
        guard case .launch(let launch) = try ReceiverMessage(jsonString: MessageFixtures.receiver[3]) else {
            Issue.record("not a LAUNCH")
            return
        }
        #expect(launch.supportedAppTypes == [.web, .androidTV])
        #expect(
            launch.appParams?.launchCheckerParams?.credentialsData
                == CredentialsData(credentials: "user-token", credentialsType: "android")
        )
    }

    @Test func appAvailabilityRequestAndReplyAreTold() throws {
        let request = try ReceiverMessage(
            jsonString: #"{"type":"GET_APP_AVAILABILITY","requestId":2,"appId":["CC1AD845"]}"#
        )
        #expect(request == .getAppAvailability(GetAppAvailabilityRequest(requestID: 2, appID: ["CC1AD845"])))
        let reply = try ReceiverMessage(
            jsonString:
                #"{"responseType":"GET_APP_AVAILABILITY","requestId":2,"availability":{"CC1AD845":"APP_AVAILABLE"}}"#
        )
        #expect(
            reply == .appAvailability(AppAvailabilityResponse(requestID: 2, availability: ["CC1AD845": .available]))
        )
        // A reply that carries both members is still a reply.
        let both = try ReceiverMessage(
            jsonString:
                #"{"type":"GET_APP_AVAILABILITY","responseType":"GET_APP_AVAILABILITY","requestId":2,"availability":{}}"#
        )
        #expect(both == .appAvailability(AppAvailabilityResponse(requestID: 2, availability: [:])))
        let encoded = try AppAvailabilityResponse(requestID: 2, availability: ["A": .unavailable]).jsonString()
        #expect(
            encoded == #"{"responseType":"GET_APP_AVAILABILITY","requestId":2,"availability":{"A":"APP_UNAVAILABLE"}}"#
        )
    }

    @Test func responseTypeAloneIsAccepted() throws {
        let message = try ReceiverMessage(jsonString: #"{"responseType":"RECEIVER_STATUS","requestId":3,"status":{}}"#)
        #expect(message == .receiverStatus(ReceiverStatusMessage(requestID: 3, status: ReceiverStatus())))
    }

    @Test func nullTypeFallsBackToResponseType() throws {
        let message = try ReceiverMessage(jsonString: #"{"type":null,"responseType":"RECEIVER_STATUS","status":{}}"#)
        #expect(message == .receiverStatus(ReceiverStatusMessage(status: ReceiverStatus())))
        let error = decodingError { _ = try ReceiverMessage(jsonString: #"{"type":null}"#) }
        #expect(error?.code == .missingType)
    }

    @Test func launchStatusRequestIDFallsBackToLaunchRequestID() throws {
        let message = try ReceiverMessage(
            jsonString: #"{"type":"LAUNCH_STATUS","launchRequestId":5,"status":"USER_ALLOWED"}"#
        )
        #expect(message.requestID == 5)
    }

    @Test func encodesPychromecastLaunch() throws {
        #expect(
            try LaunchRequest(requestID: 3, appID: "CC1AD845").jsonString()
                == #"{"type":"LAUNCH","requestId":3,"appId":"CC1AD845"}"#
        )
        #expect(
            try SetDeviceVolumeRequest(requestID: 4, volume: Volume(muted: true)).jsonString()
                == #"{"type":"SET_VOLUME","requestId":4,"volume":{"muted":true}}"#
        )
    }

    @Test func missingAppIDIsNamed() {
        let error = decodingError { _ = try ReceiverMessage(jsonString: #"{"type":"LAUNCH","requestId":1}"#) }
        #expect(error == MessageDecodingError(code: .missingField, path: "appId"))
    }

    @Test func unknownTypeIsKept() throws {
        let payload = #"{"type":"DEVICE_INFO","requestId":7,"deviceInfo":{"name":"Living Room"}}"#
        let message = try ReceiverMessage(jsonString: payload)
        #expect(message == .unknown(UnknownMessage(type: "DEVICE_INFO", payload: try JSONValue(parsing: payload))))
        #expect(message.requestID == 7)
        #expect(message.message == nil)
        #expect(try JSONValue(parsing: message.jsonString()) == JSONValue(parsing: payload))
    }
}
