// Fuzzes what `cast status` prints for a hostile device: the input is a program of device
// messages (MEDIA_STATUS, RECEIVER_STATUS with applications and volumes) and clock steps; the
// report is built as `StatusReport(session:)` builds it (the media status through
// `RemoteMediaClient`, the receiver volume through `ReceiverStatus.clampingWireNumbers()`), and
// also straight from the unchecked values, then printed as text, as `--watch` lines and as
// JSON.
//
// Properties: nothing traps; no printed line holds a control character (C0, DEL, C1: no
// escape sequence reaches the terminal); the volume prints as 0% to 100%; the JSON output is
// one line of JSON, and for the checked values it is the report object (not `null`).

@testable import CastCore
import CastNet
import CastTime
import Dispatch
import Foundation
import FuzzSupport

@testable import CastCommandLine
@testable import CastSender

private let queue = DispatchQueue(label: "fuzz-status-report")
private let logger = CastLogger()
private let device = CastDevice(id: UUID(), friendlyName: "TV", modelName: "Chromecast", port: 8009)
private let sink = OutputSink(errorIsTerminal: false, usesColor: false, out: { _ in }, err: { _ in })
private let steps: [Duration] = [.zero, .seconds(1), .seconds(600), .seconds(86400 * 3650)]

private func check(_ report: StatusReport, checked: Bool, _ bytes: inout FuzzBytes) {
    for line in report.lines(output: sink).map(\.plainText) + [report.progressLine(width: bytes.below(120))] {
        let control = line.unicodeScalars.first { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        FuzzProperty.require(
            control == nil,
            "a control character \(control.map { $0.value } ?? 0) in \(line.debugDescription)"
        )
        if line.hasPrefix("Volume:  ") {
            let percent = line.dropFirst(9).prefix { $0.isNumber }
            FuzzProperty.require(Int(percent).map { (0...100).contains($0) } ?? false, "volume line \(line)")
        }
    }
    let json = OutputSink.encode(report.json)
    FuzzProperty.require(!json.contains("\n"), "the JSON output spans lines")
    let raw = json.unicodeScalars.first { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    FuzzProperty.require(raw == nil, "a raw control character \(raw.map { $0.value } ?? 0) in the JSON output")
    guard let value = try? JSONValue(parsing: json) else {
        FuzzProperty.fail("the JSON output does not parse: \(json)")
    }
    if checked {
        FuzzProperty.require(
            value["device"]?["host"] == "127.0.0.1",
            "the checked report's JSON is \(json.prefix(200))"
        )
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStatusReport(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.run(start, count) { input in
        var bytes = FuzzBytes(input)
        let clock = ManualCastClock()
        let client = RemoteMediaClient(clock: clock, logger: logger, callbackQueue: queue)
        var report = StatusReport(idleDevice: device, host: "127.0.0.1", port: 8009)
        var raw = report
        var operations = 0
        while !bytes.isAtEnd, operations < 10 {
            operations += 1
            switch bytes.below(4) {
            case 0, 1:
                let text = DeviceMessageText.mediaStatusMessage(&bytes)
                guard case .mediaStatus(let message)? = try? MediaMessage(jsonString: DeviceMessageText.framed(text))
                else { continue }
                client.receive(.mediaStatus(message))
                raw.media = message.status.first
                raw.position = bytes.bool() ? bytes.double() : message.status.first?.currentTime
            case 2:
                let text = DeviceMessageText.receiverStatusMessage(&bytes)
                guard
                    case .receiverStatus(let message)? = try? ReceiverMessage(
                        jsonString: DeviceMessageText.framed(text)
                    )
                else { continue }
                let status = message.status.clampingWireNumbers().status
                report.application = status.applications?.first
                report.volume = status.volume?.level
                report.muted = status.volume?.muted
                report.deviceName = status.applications?.first?.displayName ?? report.deviceName
                raw.application = message.status.applications?.first
                raw.volume = message.status.volume?.level
                raw.muted = message.status.volume?.muted
            default:
                clock.advance(by: bytes.pick(steps))
            }
            report.media = client.mediaStatus
            report.position = report.media == nil ? nil : client.approximateStreamPosition
            check(report, checked: true, &bytes)
            check(raw, checked: false, &bytes)
        }
        queue.sync {}
    }
}
