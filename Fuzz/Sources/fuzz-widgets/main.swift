// Fuzzes the widget models with the statuses a hostile device sends: the input is a program of
// device messages (MEDIA_STATUS, queue messages, RECEIVER_STATUS volumes) and clock steps fed
// to a `RemoteMediaClient`, from which the media control state is computed as
// `MediaController` computes it; the mini and expanded controller models, the seek bar
// (`SeekBarState` and TerminalUI's `SeekBar`, as castvideos draws it), the ad break, track,
// rate, queue and volume states are read from it. The same statuses also reach the models raw,
// without the SDK's range checks, with positions and live ranges of any value.
//
// Properties: nothing traps; progress is `nil` or within 0...1; the seek bar's texts are short
// and render within the width asked; volume levels stay within 0...1 and percentages within
// 0...100; an ad's countdown is not negative; the controllers show the media state they are
// given.

@testable import CastCore
import CastNet
import CastTime
import Dispatch
import FuzzSupport
import TerminalUI

@testable import CastSender
@testable import CastSenderUI

private let queue = DispatchQueue(label: "fuzz-widgets")
private let logger = CastLogger()
private let steps: [Duration] = [.zero, .milliseconds(700), .seconds(5), .seconds(3600), .seconds(86400 * 3650)]

/// One controller pair for the whole run: the models keep no state of their own between
/// inputs beyond what `state(for:)` is given.
private let models: (mini: MiniControllerModel, expanded: ExpandedControllerModel) = {
    var options = CastOptions(receiverApplicationID: "CC1AD845")
    options.disableDiscoveryAutostart = true
    options.callbackQueue = queue
    options.logger = logger
    let context = CastContext(options: options)
    let controller = MediaController(context: context)
    return (MiniControllerModel(mediaController: controller), ExpandedControllerModel(mediaController: controller))
}()

private func checkText(_ text: String, _ what: String) {
    FuzzProperty.require(text.count <= 24, "\(what) is \(text.count) characters: \(text.prefix(40))")
}

private func check(_ state: MediaControlState, _ bytes: inout FuzzBytes) {
    let seekBar = state.seekBar
    if let progress = seekBar.progress {
        FuzzProperty.require((0...1).contains(progress), "seek bar progress \(progress)")
    }
    checkText(seekBar.positionText, "positionText")
    checkText(seekBar.durationText, "durationText")
    checkText(seekBar.remainingText, "remainingText")
    let width = bytes.below(160)
    let bar = SeekBar(position: seekBar.position, duration: seekBar.duration).render(width: width)
    FuzzProperty.require(TextLayout.width(of: bar) <= max(width, 0), "the seek bar is wider than \(width): \(bar)")
    if let ad = state.adBreak {
        _ = ad.skipLabel
        if case .countdown(let seconds) = ad.skip { FuzzProperty.require(seconds > 0, "ad countdown \(seconds)") }
        if let remaining = ad.clipRemaining { FuzzProperty.require(!remaining.isNaN, "ad clip remaining is NaN") }
    }
    if let volume = state.streamVolume {
        FuzzProperty.require((0...1).contains(volume.level), "stream volume \(volume.level)")
    }
    _ = state.playbackRate.segment?.title
    _ = QueueNavigationState.label(for: state.queue.repeatMode)
    _ = QueueNavigationState.next(after: state.queue.repeatMode)
    let trackID = bytes.integer()
    _ = state.tracks.selecting(trackID)
    _ = state.tracks.deselecting(trackID)
    _ = state.title
    _ = state.subtitle

    let mini = models.mini.state(for: state)
    FuzzProperty.require(mini.progress == seekBar.progress, "the mini controller's progress differs")
    let expanded = models.expanded.state(for: state)
    // Compared by what it shows: a raw NaN position is never equal to itself.
    FuzzProperty.require(
        expanded.seekBar.positionText == seekBar.positionText && expanded.seekBar.progress == seekBar.progress
            && expanded.seekBar.durationText == seekBar.durationText,
        "the expanded controller's seek bar differs"
    )
}

private func checkVolume(_ text: String, _ bytes: inout FuzzBytes) {
    guard case .receiverStatus(let message)? = try? ReceiverMessage(jsonString: DeviceMessageText.framed(text)),
        let raw = message.status.volume
    else { return }
    let clamped = message.status.clampingWireNumbers().status.volume ?? raw
    for volume in [raw, clamped] {
        let pending: Double? = bytes.bool() ? Double(bytes.byte()) / 255 : nil
        let state = DeviceVolumeState(volume: volume, pendingLevel: pending, deviceName: "TV")
        FuzzProperty.require((0...1).contains(state.level), "device volume level \(state.level)")
        FuzzProperty.require((0...100).contains(state.percent), "device volume percent \(state.percent)")
        FuzzProperty.require(
            state.stepInterval.isFinite && state.stepInterval > 0 && state.stepInterval <= 1,
            "volume step \(state.stepInterval)"
        )
    }
}

/// The same status straight into the models, past the SDK's checks.
private func rawInputs(_ status: MediaStatus?, _ bytes: inout FuzzBytes) -> MediaControlInputs {
    var inputs = MediaControlInputs()
    inputs.isConnected = bytes.bool()
    inputs.status = status
    inputs.position = bytes.double()
    inputs.sinceStatus = bytes.double()
    inputs.lastKnownStreamPosition = bytes.double()
    if bytes.bool() {
        let (a, b) = (bytes.double(), bytes.double())
        if !a.isNaN, !b.isNaN { inputs.liveSeekableRange = min(a, b)...max(a, b) }
    }
    inputs.queueItemIDs = (0..<bytes.below(4)).map { _ in bytes.integer() }
    return inputs
}

@_silgen_name("__lsan_disable") private func disableLeakChecks()
@_silgen_name("__lsan_enable") private func enableLeakChecks()

/// Creates the models before the first input, with leak checks off: their listener
/// registrations hold weak references, whose side tables LeakSanitizer cannot see through
/// (the pointer to them is tagged) and would report as leaked at exit.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: FuzzArguments, _ argv: FuzzArguments) -> CInt {
    disableLeakChecks()
    _ = models
    enableLeakChecks()
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWidgets(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.run(start, count) { input in
        var bytes = FuzzBytes(input)
        let clock = ManualCastClock()
        let client = RemoteMediaClient(clock: clock, logger: logger, callbackQueue: queue)
        var operations = 0
        while !bytes.isAtEnd, operations < 12 {
            operations += 1
            switch bytes.below(6) {
            case 0, 1:
                let text = DeviceMessageText.mediaStatusMessage(&bytes)
                guard let message = try? MediaMessage(jsonString: DeviceMessageText.framed(text)) else { continue }
                client.receive(message)
                if case .mediaStatus(let statuses) = message {
                    check(MediaControlState(rawInputs(statuses.status.first, &bytes)), &bytes)
                }
            case 2:
                if let message = try? MediaMessage(
                    jsonString: DeviceMessageText.framed(DeviceMessageText.queueMessage(&bytes))
                ) {
                    client.receive(message)
                }
            case 3:
                checkVolume(DeviceMessageText.receiverStatusMessage(&bytes), &bytes)
            case 4:
                clock.advance(by: bytes.pick(steps))
            default:
                if bytes.below(4) == 0 { client.sessionEnded() }
            }
            check(MediaControlState(MediaControlInputs(client: client)), &bytes)
        }
        queue.sync {}
    }
}
