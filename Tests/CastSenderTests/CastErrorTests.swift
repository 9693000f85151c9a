import Testing

@testable import CastSender

@Suite struct CastErrorTests {
    @Test(arguments: [
        (CastError.Code.network, 1), (.timeout, 2), (.deviceAuthentication, 3), (.invalidRequest, 4), (.cancelled, 5),
        (.replaced, 6), (.channelNotConnected, 12), (.alreadyInitialized, 19), (.applicationNotFound, 20),
        (.applicationNotRunning, 21), (.invalidApplicationSessionID, 22), (.mediaLoadFailed, 30),
        (.invalidMediaPlayerState, 31), (.noMediaSession, 32), (.mediaError, 34), (.disconnected, 92),
        (.secretsWithheld, 93),
    ])
    func stableCodes(code: CastError.Code, value: Int) {
        #expect(code.rawValue == value)
        #expect(CastError.Code(rawValue: value) == code)
    }

    @Test func descriptionSaysWhatAndWhere() {
        let error = CastError(.mediaLoadFailed, "LOAD failed", wireReason: "INVALID_PARAMS", detailedErrorCode: 104)
        #expect(error.description.contains("media load failed (30)"))
        #expect(error.description.contains("INVALID_PARAMS"))
        #expect(error.description.contains("104"))
        #expect(error == CastError(.mediaLoadFailed, "other text"))
    }

    @Test func wireMapping() {
        let launch = CastError.receiverReply(
            .launchError(LaunchErrorMessage(requestID: 1, reason: .notFound)),
            request: "LAUNCH"
        )
        #expect(launch?.code == .applicationNotFound)
        let stop = CastError.receiverReply(
            .invalidRequest(InvalidRequestMessage(requestID: 1, reason: .invalidSessionID)),
            request: "STOP"
        )
        #expect(stop?.code == .invalidApplicationSessionID)
        #expect(
            CastError.mediaReply(.loadCancelled(LoadCancelledMessage(requestID: 1)), request: "LOAD")?.code == .replaced
        )
        #expect(
            CastError.mediaReply(.invalidPlayerState(InvalidPlayerStateMessage(requestID: 1)), request: "PAUSE")?.code
                == .invalidMediaPlayerState
        )
        #expect(CastError.mediaReply(.error(MediaErrorMessage(requestID: 1)), request: "LOAD")?.code == .mediaError)
    }

    @Test func sharedInstanceCanOnlyBeConfiguredOnce() {
        let options = CastOptions(receiverApplicationID: "CC1AD845")
        try? CastContext.setSharedInstance(with: options)
        #expect(CastContext.isSharedInstanceInitialized)
        #expect(throws: CastError(.alreadyInitialized, "")) { try CastContext.setSharedInstance(with: options) }
    }
}
