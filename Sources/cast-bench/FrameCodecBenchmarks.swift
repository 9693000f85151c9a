import CastCore

/// Frame codec throughput on one core.
let frameCodecBenchmarks = BenchmarkGroup(name: "frames", summary: "frame encode/decode per second") {
    let body = [UInt8](repeating: 0x41, count: 200)
    let frame = try CastFrameEncoder.encode(body)
    let encodeRate = try Measure.throughput { _ = try CastFrameEncoder.encode(body) }
    var decoder = CastFrameDecoder()
    let decodeRate = try Measure.throughput {
        decoder.append(frame)
        _ = try decoder.nextFrame()
    }
    return [
        BenchmarkRow(name: "frame encode (200 B body)", value: Format.rate(encodeRate), note: "1 core"),
        BenchmarkRow(name: "frame decode (200 B body)", value: Format.rate(decodeRate), note: "1 core"),
    ]
}
