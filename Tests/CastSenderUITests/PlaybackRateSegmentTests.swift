import Testing

@testable import CastSenderUI

@Suite struct PlaybackRateSegmentTests {
    @Test(arguments: [
        (1.0, PlaybackRateSegment.normal), (0.5, .half), (0.25, .half), (0.99, .half), (2.0, .double),
        (1.5, .double), (16, .double),
    ])
    func incomingRateMapsToSegment(rate: Double, segment: PlaybackRateSegment) {
        #expect(PlaybackRateSegment(rate: rate) == segment)
    }

    @Test func segmentsSetTheSampleRates() {
        #expect(PlaybackRateSegment.allCases.map(\.rate) == [1.0, 0.5, 2.0])
        #expect(PlaybackRateSegment.allCases.map(\.title) == ["Normal", "Half speed", "Double speed"])
    }

    @Test func controllerStateWithoutMediaSession() {
        let state = PlaybackRateControllerState(rate: nil, inputEnabled: false)
        #expect(state.segment == nil)
        #expect(!state.inputEnabled)
        #expect(PlaybackRateControllerState(rate: 0.5, inputEnabled: true).segment == .half)
    }
}
