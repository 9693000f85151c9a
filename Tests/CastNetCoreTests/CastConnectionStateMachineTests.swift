import CastCore
import CastTime
import Testing

@testable import CastNetCore

/// ``CastConnectionStateMachine`` by its actions, without a channel.
@Suite struct CastConnectionStateMachineTests {
    typealias Machine = CastConnectionStateMachine

    static func frame(_ body: [UInt8]) -> [UInt8] {
        (try? CastFrameEncoder.encode(body, maximumBodySize: 65_536)) ?? []
    }

    static func read(
        _ bytes: [UInt8],
        into machine: inout Machine,
        at now: CastInstant = .init(offset: .zero)
    )
        -> [Machine.Action]
    {
        bytes.withUnsafeBytes { machine.bytesRead($0, now: now) }
    }

    @Test func aPullConsumerGetsOneFrameAndReadingStopsUntilItAsksAgain() {
        var machine = Machine(limits: CastConnectionLimits())
        #expect(machine.maximumReadSize == CastFrameDecoder.headerSize)
        #expect(machine.frameRequested() == [.holdRequest, .setReading(true)])
        let frame = Self.frame([1, 2, 3])
        // The header, then exactly the body.
        #expect(Self.read(Array(frame.prefix(4)), into: &machine) == [.setMaximumReadSize(3)])
        #expect(
            Self.read(Array(frame.dropFirst(4)), into: &machine) == [
                .setMaximumReadSize(4), .resumeHeldRequest(.success([1, 2, 3])),
            ]
        )
        // A frame with nobody asking waits, and reading stops.
        #expect(Self.read(Self.frame([9]), into: &machine) == [.setMaximumReadSize(4), .setReading(false)])
        #expect(machine.frameRequested() == [.answerRequest(.success([9])), .setReading(false)])
        #expect(machine.frameRequested() == [.holdRequest, .setReading(true)])
        #expect(
            machine.frameRequested().first == .answerRequest(.failure(CastConnectionError(code: .closed, reason: "")))
        )
        #expect(machine.requestCancelled() == [.resumeHeldRequest(.success(nil)), .setReading(false)])
    }

    @Test func aHandlerGetsTheWaitingFrameAndEveryLaterOne() {
        var machine = Machine(limits: CastConnectionLimits())
        #expect(Self.read(Self.frame([7]), into: &machine) == [.setMaximumReadSize(4), .setReading(false)])
        #expect(machine.handlerInstalled() == [.deliver([7]), .setReading(true)])
        #expect(Self.read(Self.frame([8]), into: &machine) == [.setMaximumReadSize(4), .deliver([8])])
        #expect(
            machine.frameRequested().first == .answerRequest(.failure(CastConnectionError(code: .closed, reason: "")))
        )
    }

    @Test func brokenFramingFailsTheConnectionOnce() {
        var machine = Machine(limits: CastConnectionLimits())
        let actions = Self.read([0xFF, 0xFF, 0xFF, 0xFF], into: &machine)
        #expect(actions == [.closeChannel(CastConnectionError(code: .framing, reason: ""))])
        #expect(
            machine.channelClosed(transportError: nil) == [.finish(CastConnectionError(code: .framing, reason: ""))]
        )
        #expect(machine.failed(CastConnectionError(code: .sendQueueFull, reason: "")).isEmpty)
        #expect(machine.closeError?.code == .framing)
    }

    @Test func aTrickledFrameTimesOutOnOneTimer() {
        var limits = CastConnectionLimits()
        limits.frameTimeout = .seconds(2)
        var machine = Machine(limits: limits)
        let start = CastInstant(offset: .seconds(10))
        let frame = Self.frame([1, 2, 3, 4])
        #expect(
            Self.read(Array(frame.prefix(2)), into: &machine, at: start) == [
                .setMaximumReadSize(2), .armFrameTimer(after: .seconds(2)),
            ]
        )
        // More bytes of the same frame arm nothing more.
        #expect(
            Self.read(Array(frame[2..<5]), into: &machine, at: start.advanced(by: .seconds(1))) == [
                .setMaximumReadSize(3)
            ]
        )
        #expect(
            machine.frameDeadlinePassed(now: start.advanced(by: .seconds(2))) == [
                .closeChannel(CastConnectionError(code: .frameTimeout, reason: ""))
            ]
        )
    }

    @Test func aFrameFinishedInTimeLeavesTheTimerIdle() {
        var limits = CastConnectionLimits()
        limits.frameTimeout = .seconds(2)
        var machine = Machine(limits: limits)
        let start = CastInstant(offset: .zero)
        let first = Self.frame([1])
        #expect(Self.read(Array(first.prefix(2)), into: &machine, at: start).last == .armFrameTimer(after: .seconds(2)))
        _ = Self.read(Array(first.dropFirst(2)), into: &machine, at: start)
        #expect(machine.frameDeadlinePassed(now: start.advanced(by: .seconds(2))).isEmpty)
        // A later frame begun 1.5 s before the timer fires gets the rest of its time.
        let second = Self.frame([2])
        let begun = start.advanced(by: .seconds(3))
        #expect(
            Self.read(Array(second.prefix(1)), into: &machine, at: begun).last == .armFrameTimer(after: .seconds(2))
        )
        #expect(
            machine.frameDeadlinePassed(now: begun.advanced(by: .milliseconds(500))) == [
                .armFrameTimer(after: .milliseconds(1_500))
            ]
        )
    }

    @Test func anOrderlyCloseWakesTheHeldRequestWithTheEndOfTheFrames() {
        var machine = Machine(limits: CastConnectionLimits())
        _ = machine.frameRequested()
        #expect(machine.closeRequested(reason: "done") == [.closeGracefully])
        #expect(machine.channelClosed(transportError: nil) == [.resumeHeldRequest(.success(nil)), .finish(nil)])
        #expect(machine.closeRequested(reason: "again").isEmpty)
        #expect(machine.frameRequested() == [.answerRequest(.success(nil))])
    }

    @Test func endOfFileMidFrameIsATruncatedFrame() {
        var machine = Machine(limits: CastConnectionLimits())
        _ = Self.read([0, 0], into: &machine)
        #expect(machine.endOfFileRead() == [.closeChannel(CastConnectionError(code: .truncatedFrame, reason: ""))])
        var clean = Machine(limits: CastConnectionLimits())
        #expect(clean.endOfFileRead() == [.closeGracefully])
    }
}
