// Writes the seed corpus of every fuzz target, built with swift-cast's own encoders:
//
//     swift run --package-path Fuzz fuzz-seeds [output directory, default Fuzz/Corpus]
//
// Each target's directory is emptied and refilled, so the output depends only on the code and
// the device-auth test data (RSASSA-PKCS1-v1_5 signatures are deterministic).

import Foundation

let output: URL
if CommandLine.arguments.count > 1 {
    output = URL(fileURLWithPath: CommandLine.arguments[1])
} else {
    // #filePath = <root>/Fuzz/Sources/fuzz-seeds/main.swift
    output = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpus")
}

let auth = AuthSeeds()
let sets = [
    try FrameSeeds.seeds(),
    CastMessageSeeds.seeds(),
    try auth.messageSeeds(),
    try auth.crlSeeds(),
    try auth.replySeeds(),
    try JSONSeeds.seeds(),
    try DNSSeeds.seeds(),
    HTTPSeeds.seeds(),
    PNGSeeds.seeds(),
    JPEGSeeds.seeds(),
    ProgramSeeds.deviceEngine(),
    ProgramSeeds.mediaClient(),
    ProgramSeeds.widgets(),
    ProgramSeeds.statusReport(),
    HTTPServerSeeds.seeds(),
]

let files = FileManager.default
for set in sets {
    let directory = output.appendingPathComponent(set.target)
    try? files.removeItem(at: directory)
    try files.createDirectory(at: directory, withIntermediateDirectories: true)
    for seed in set.seeds {
        try Data(seed.bytes).write(to: directory.appendingPathComponent(seed.name))
    }
    print("\(set.target): \(set.seeds.count) seeds")
}
