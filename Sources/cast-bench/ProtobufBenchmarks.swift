import CastCore
import Foundation

/// A media-namespace `MEDIA_STATUS`-sized message as a real session carries it.
enum SampleMessages {
    static let mediaJSON =
        #"{"type":"LOAD","requestId":4711,"sessionId":"7E2E5D4A-1C3B-4F7A-9D8E-2B6C0A1F3E59","#
        + #""media":{"contentId":"https://commondatastorage.googleapis.com/gtv-videos-bucket/sample/BigBuckBunny.mp4","#
        + #""streamType":"BUFFERED","contentType":"video/mp4","metadata":{"metadataType":1,"#
        + #""title":"Big Buck Bunny","subtitle":"By Blender Foundation","images":[{"url":"#
        + #""https://commondatastorage.googleapis.com/gtv-videos-bucket/sample/images/BigBuckBunny.jpg","#
        + #""width":480,"height":360}]},"duration":596.474195},"autoplay":true,"currentTime":0,"#
        + #""customData":{"queue":"main","analytics":{"source":"castvideos","position":3}}}"#

    static let media = CastMessage(
        sourceID: "sender-5f3a9c2e-8b1d-4e6f-a07c-93d2b1e4f8a6",
        destinationID: "9c4f2b1e-7d3a-4c5b-8e6f-1a2b3c4d5e6f",
        namespace: .media,
        text: mediaJSON
    )
}

/// CastMessage protobuf throughput on one core.
let protobufBenchmarks = BenchmarkGroup(name: "protobuf", summary: "CastMessage encode/decode per second") {
    let message = SampleMessages.media
    let body = message.serializedBytes()
    let frame = try CastFrameEncoder.encode(body)
    let payloadBytes = message.payloadUTF8?.utf8.count ?? 0

    let encode = Measure.sampled { _ = message.serializedBytes() }
    let decode = try Measure.sampled { _ = try CastMessage(serializedBytes: body) }
    let decodeSlice = try Measure.sampled { _ = try CastMessage(serializedBytes: frame[4...]) }
    var decoder = CastFrameDecoder()
    let receive = try Measure.sampled {
        decoder.append(frame)
        if let next = try decoder.nextFrame() {
            _ = try CastMessage(serializedBytes: next)
        }
    }
    let send = try Measure.sampled { _ = try CastFrameEncoder.encode(message.serializedBytes()) }

    func row(_ name: String, _ timing: SampledTiming) -> BenchmarkRow {
        BenchmarkRow(
            name: name,
            value: Format.rate(1 / timing.median),
            median: Format.time(seconds: timing.median),
            p99: Format.time(seconds: timing.p99),
            note: "\(body.count) B body, \(payloadBytes) B JSON, 1 core, best \(Format.time(seconds: timing.best))"
        )
    }
    return [
        row("CastMessage encode", encode),
        row("CastMessage decode ([UInt8] body)", decode),
        row("CastMessage decode (frame slice)", decodeSlice),
        row("frame + CastMessage decode", receive),
        row("CastMessage encode + frame", send),
    ]
}
